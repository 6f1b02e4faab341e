/**
 * What bounds a stranger's posts (the network's daily budget of leads and files, doubtful posts'
 * apart from those with a valid proof), and the daily digest that tells staff what is held: both languages, no
 * visitor text, and the date each held lead will be erased.
 */
import { describe, expect, test } from 'vitest';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';
import { DAY_MS, NetworkBudget } from '../../src/server/receiver/network-budget';
import { RateLimiter } from '../../src/server/receiver/rate-limit';
import { WARNING_DAYS, composeHeldDigest, erasureDate } from '../../src/server/inbox/held-digest';
import { riyadhDay } from '../../src/server/inbox/export-format';
import type { HeldLead } from '../../src/server/store/held-queries';
import { escapeHtml } from '../../src/server/mail/escape';

const keys = new RateLimiter({ limit: 1, windowMs: 1000 });

describe("a network's daily budget", () => {
  test("a network may leave its day's held leads, then is refused until its day is over; another network is counted on its own", () => {
    const budget = new NetworkBudget({ held: 2, unprovenFileBytes: 0, leads: 0, fileBytes: 0 }, keys);
    const t0 = 1_000_000;
    expect(budget.take('203.0.113.7', false, 0, t0)).toEqual({ ok: true, keepFiles: true });
    expect(budget.take('203.0.113.7', false, 0, t0 + 1000)).toEqual({ ok: true, keepFiles: true });
    expect(budget.take('203.0.113.7', false, 0, t0 + 2000)).toEqual({ ok: false, retryAfterSeconds: DAY_MS / 1000 - 2 });
    expect(budget.take('203.0.113.8', false, 0, t0 + 2000).ok).toBe(true);
    // One IPv6 subscriber (/64) is one network.
    const six = new NetworkBudget({ held: 1, unprovenFileBytes: 0, leads: 0, fileBytes: 0 }, keys);
    expect(six.take('2001:db8:1:2::1', false, 0, t0).ok).toBe(true);
    expect(six.take('2001:db8:1:2::ffff', false, 0, t0).ok).toBe(false);
    expect(budget.take('203.0.113.7', false, 0, t0 + DAY_MS).ok).toBe(true);
  });

  test('a post refused for its shape costs its network a held lead of the day: past the budget, refused until the day is over', () => {
    const budget = new NetworkBudget({ held: 2, unprovenFileBytes: 0, leads: 0, fileBytes: 0 }, keys);
    expect(budget.takeRefused('203.0.113.9', 0).ok).toBe(true);
    expect(budget.take('203.0.113.9', false, 0, 1000).ok).toBe(true);
    expect(budget.takeRefused('203.0.113.9', 2000)).toEqual({ ok: false, retryAfterSeconds: DAY_MS / 1000 - 2 });
    expect(budget.take('203.0.113.9', false, 0, 3000).ok).toBe(false);
    // Turned off (0), nothing is counted.
    const off = new NetworkBudget({ held: 0, unprovenFileBytes: 0, leads: 0, fileBytes: 0 }, keys);
    for (let i = 0; i < 5; i++) expect(off.takeRefused('203.0.113.9', i).ok).toBe(true);
  });

  test("files without a proof count against the day's quota: past it the lead is kept without them", () => {
    const mb = 1024 * 1024;
    const budget = new NetworkBudget({ held: 0, unprovenFileBytes: 5 * mb, leads: 0, fileBytes: 0 }, keys);
    expect(budget.take('198.51.100.1', false, 2 * mb, 0)).toEqual({ ok: true, keepFiles: true });
    expect(budget.take('198.51.100.1', false, 2 * mb, 1)).toEqual({ ok: true, keepFiles: true });
    expect(budget.take('198.51.100.1', false, 2 * mb, 2)).toEqual({ ok: true, keepFiles: false });
    // A smaller file still fits; a lead without files is never affected.
    expect(budget.take('198.51.100.1', false, mb, 3)).toEqual({ ok: true, keepFiles: true });
    expect(budget.take('198.51.100.1', false, 0, 4)).toEqual({ ok: true, keepFiles: true });
  });

  test('posts with a valid proof have their own account: never refused for what doubtful posts spent, bounded on their own', () => {
    const mb = 1024 * 1024;
    const budget = new NetworkBudget({ held: 1, unprovenFileBytes: mb, leads: 2, fileBytes: 3 * mb }, keys);
    expect(budget.take('203.0.113.5', false, 0, 0).ok).toBe(true);
    expect(budget.take('203.0.113.5', false, 0, 1).ok).toBe(false);
    expect(budget.take('203.0.113.5', true, 2 * mb, 2)).toEqual({ ok: true, keepFiles: true });
    expect(budget.take('203.0.113.5', true, 2 * mb, 3)).toEqual({ ok: true, keepFiles: false });
    expect(budget.take('203.0.113.5', true, 0, 4)).toEqual({ ok: false, retryAfterSeconds: DAY_MS / 1000 });
    // Spending the proven account leaves the doubtful one as it was, and the reverse.
    expect(budget.take('203.0.113.6', true, 0, 5).ok).toBe(true);
    expect(budget.take('203.0.113.6', false, 0, 6).ok).toBe(true);
  });

  test('0 turns each bound off', () => {
    const budget = new NetworkBudget({ held: 0, unprovenFileBytes: 0, leads: 0, fileBytes: 0 }, keys);
    for (let i = 0; i < 1000; i++)
      expect(budget.take('192.0.2.1', i % 2 === 0, 2 * 1024 * 1024, i)).toEqual({ ok: true, keepFiles: true });
  });
});

const lead = (id: string, receivedAt: string, reason: HeldLead['reason'], form: HeldLead['form'] = 'contact'): HeldLead => ({
  id,
  form,
  receivedAt,
  language: 'en',
  fields: { firstName: '<script>alert(1)</script>', message: 'Buy cheap pills' },
  review: 'held',
  reason,
  files: 0,
});

describe('the daily digest', () => {
  const config = { proof: { heldPurgeDays: 30 } as never, siteUrl: 'https://www.globaq.example' };
  const now = new Date('2026-11-27T05:00:00Z');
  const newest = [
    lead('22222222-2222-4222-8222-222222222222', '2026-11-26T10:00:00Z', 'manyPosts', 'partner'),
    lead('11111111-1111-4111-8111-111111111111', '2026-10-25T08:00:00Z', 'noProof'),
  ];
  const due = [{ ...newest[1]!, warnedAt: undefined }];
  const digestSummary = {
    waiting: 2,
    byReason: { manyPosts: 1, noProof: 1 },
    oldestReceivedAt: newest[1]!.receivedAt,
    unwarnedOverdue: 1,
  };
  const digest = composeHeldDigest({
    summary: digestSummary,
    newest,
    due,
    now,
    config,
  });

  test('subject and body in English and Arabic, reasons in staff words, links to the held tab and each lead', () => {
    expect(digest.subject).toBe('Held for review: 2 waiting · بانتظار المراجعة: 2');
    for (const [part, as] of [
      [digest.text, (text: string) => text],
      [digest.html, escapeHtml],
    ] as const) {
      expect(part).toContain(as(en['admin.held.reason.manyPosts']));
      expect(part).toContain(as(ar['admin.held.reason.manyPosts']));
      expect(part).toContain(as(en['admin.held.reason.noProof']));
      expect(part).toContain('https://www.globaq.example/admin?status=held');
      expect(part).toContain('https://www.globaq.example/admin/leads/22222222-2222-4222-8222-222222222222');
    }
    expect(digest.html).toContain('<section lang="ar" dir="rtl"');
    expect(digest.text).not.toMatch(/proof of work/i);
  });

  test("tells how many doubtful posts were refused past their network's budget since the last digest, only when there were any", () => {
    const withRefusals = composeHeldDigest({
      summary: { waiting: 1, byReason: { manyPosts: 1 }, oldestReceivedAt: newest[0]!.receivedAt, unwarnedOverdue: 0 },
      newest: newest.slice(0, 1),
      due: [],
      now,
      config,
      refused: 12,
    });
    expect(withRefusals.text).toContain(en['mail.digest.refused'].replace('{count}', '12'));
    expect(withRefusals.text).toContain(ar['mail.digest.refused'].replace('{count}', '12'));
    expect(digest.text).not.toContain(en['mail.digest.refused'].split('{count}')[0]!);
  });

  test('how long held leads are kept, in each language\'s plural: never "1 days"', () => {
    const keptFor = (days: number) =>
      composeHeldDigest({
        summary: digestSummary,
        newest,
        due,
        now,
        config: { ...config, proof: { heldPurgeDays: days } as never },
      }).text;
    expect(digest.text).toContain('(held submissions are kept 30 days)');
    expect(digest.text).toContain('(تُحفظ النماذج المحجوزة 30 يومًا)');
    expect(keptFor(1)).toContain('(held submissions are kept 1 day)');
    expect(keptFor(1)).toContain('(تُحفظ النماذج المحجوزة يوم واحد)');
    expect(keptFor(2)).toContain('(تُحفظ النماذج المحجوزة يومان)');
    expect(keptFor(7)).toContain('(تُحفظ النماذج المحجوزة 7 أيام)');
  });

  test('names no visitor text', () => {
    for (const part of [digest.subject, digest.text, digest.html]) {
      expect(part).not.toContain('script');
      expect(part).not.toContain('pills');
    }
  });

  test('says when each lead due for erasure goes: its age reached, and a week after this warning at the earliest', () => {
    expect(erasureDate({ receivedAt: '2026-10-25T08:00:00Z' }, config, now).toISOString()).toBe(
      new Date(now.getTime() + WARNING_DAYS * DAY_MS).toISOString(),
    );
    expect(erasureDate({ receivedAt: '2026-11-20T08:00:00Z', warnedAt: '2026-11-21T00:00:00Z' }, config, now).toISOString()).toBe(
      '2026-12-20T08:00:00.000Z',
    );
    expect(digest.text).toContain('Erased on Dec 4, 2026');
  });

  test("the day and hour are Riyadh's", () => {
    expect(riyadhDay(new Date('2026-11-27T03:59:00Z'))).toEqual({ day: '2026-11-27', hour: 6 });
    expect(riyadhDay(new Date('2026-11-26T21:30:00Z'))).toEqual({ day: '2026-11-27', hour: 0 });
  });
});
