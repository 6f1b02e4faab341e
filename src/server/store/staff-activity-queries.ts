/**
 * What the inbox keeps about staff rather than leads, written once for SQLite and PostgreSQL:
 * sessions, failed sign-ins (read and changed in one transaction, the rows locked where the
 * database shares them), refused sign-ins, the audit log and the morning digests' claims. The
 * rules are ../inbox/inbox-store.ts's.
 */
import { randomBytes } from 'node:crypto';
import {
  DEVICE_MAX_MS,
  PENDING_MAX_MS,
  REFUSALS_KEPT_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SESSION_STAGES,
  afterFailure,
  failureRun,
  gateOf,
  tokenHash,
  type FailureRun,
  type InboxStore,
  type SessionStage,
  type SignInGate,
  type SignInKeys,
  type SignInKind,
  type AuditEntry,
} from '../inbox/inbox-store.ts';
import { countOf, digestClaims, iso, n, type Db, type DialectParts, type Tx } from './common.ts';
import { isUuid, type AuditLogRow } from './schema.ts';

export const auditEntry = (row: AuditLogRow): AuditEntry => ({
  seq: n(row.seq),
  at: row.at,
  actor: row.actor,
  action: row.action,
  leadId: row.lead_id ?? undefined,
  detail: row.detail,
});

const newToken = () => randomBytes(32).toString('base64url');

/** A key's run of failed sign-ins, read inside a sign-in transaction (its row locked where rows are shared). */
async function failureOf(tx: Tx, dialect: DialectParts, key: string, now: Date): Promise<FailureRun> {
  const row = await tx
    .selectFrom('sign_in_failures')
    .select(['failures', 'last_failure_at', 'locked_until'])
    .where('key', '=', key)
    .$if(dialect.rowLocks, (q) => q.forUpdate())
    .executeTakeFirst();
  return failureRun(row, now);
}

/**
 * The counts an attempt is judged by: its device's alone when the browser holds a live device
 * cookie of this account (OWASP's device cookies: a lock another caused does not reach it);
 * otherwise the account's and the network's.
 */
async function judgedBy(tx: Db | Tx, keys: SignInKeys, now: Date): Promise<[SignInKind, string][]> {
  const device = keys.device && keys.device.length <= 100 ? tokenHash(keys.device) : undefined;
  if (device) {
    const row = await tx
      .selectFrom('staff_devices')
      .select('token_hash')
      .where('token_hash', '=', device)
      .where('email', '=', keys.account)
      .where('created_at', '>=', iso(new Date(now.getTime() - DEVICE_MAX_MS)))
      .executeTakeFirst();
    if (row) return [['device', `device:${device}`]];
  }
  return [
    ['account', `account:${keys.account}`],
    ['address', `address:${keys.address}`],
  ];
}

/** One attempt counted as a failure on each of its keys, unless their gate is closed (trying never makes a lock longer). */
async function countAttempt(
  tx: Tx,
  dialect: DialectParts,
  judged: readonly [SignInKind, string][],
  now: Date,
): Promise<SignInGate & { readonly lockStarted: boolean }> {
  const runs: Partial<Record<SignInKind, FailureRun>> = {};
  for (const [kind, key] of judged) {
    // The row first, then read under lock: attempts at once on one key (on any instance) queue here.
    await tx
      .insertInto('sign_in_failures')
      .values({ key, failures: 0, last_failure_at: iso(now) })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    runs[kind] = await failureOf(tx, dialect, key, now);
  }
  const gate = gateOf(runs, now);
  if (!gate.open) return { ...gate, lockStarted: false };
  let lockStarted = false;
  for (const [kind, key] of judged) {
    const next = afterFailure(kind, runs[kind]!, now);
    lockStarted ||= next.lockedUntil !== null;
    await tx
      .updateTable('sign_in_failures')
      .set((eb) => ({
        failures: next.failures,
        last_failure_at: iso(now),
        locked_until: next.lockedUntil ? iso(next.lockedUntil) : eb.ref('locked_until'),
      }))
      .where('key', '=', key)
      .execute();
  }
  return { ...gate, lockStarted };
}

/** One transaction for reading and changing sign-in counts: SQLite's holds the file, PostgreSQL's the rows it reads. */
const signInTransaction = <T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> => db.transaction().execute(work);

type StaffActivity = Pick<
  InboxStore,
  | 'claimStaffDigest'
  | 'staffDigestSent'
  | 'unclaimStaffDigest'
  | 'createSession'
  | 'session'
  | 'setPendingTotp'
  | 'endSession'
  | 'gate'
  | 'attempt'
  | 'trustedDevice'
  | 'busy'
  | 'clearFailures'
  | 'rememberDevice'
  | 'refusal'
  | 'refusals'
  | 'audit'
  | 'completeAudit'
  | 'auditLog'
>;

export function staffActivityQueries(db: Db, dialect: DialectParts): StaffActivity {
  const digests = digestClaims(db, 'staff_digests');
  return {
    claimStaffDigest: (day, email, now) => digests.claim({ day, email }, now),
    staffDigestSent: (day, email, now) => digests.sent({ day, email }, now),
    unclaimStaffDigest: (day, email) => digests.unclaim({ day, email }),
    async createSession(email, now, stage = 'signed-in') {
      const token = newToken();
      const csrf = newToken();
      await db
        .insertInto('staff_sessions')
        .values({ token_hash: tokenHash(token), email, csrf, created_at: iso(now), last_seen_at: iso(now), stage })
        .execute();
      // Sessions that ran out are cleared as new ones are made.
      await db
        .deleteFrom('staff_sessions')
        .where((eb) =>
          eb.or([
            eb('last_seen_at', '<', iso(new Date(now.getTime() - SESSION_IDLE_MS))),
            eb('created_at', '<', iso(new Date(now.getTime() - SESSION_MAX_MS))),
          ]),
        )
        .execute();
      return { token, csrf };
    },
    async session(token, now) {
      if (!token || token.length > 100) return undefined;
      const hash = tokenHash(token);
      const row = await db
        .selectFrom('staff_sessions as s')
        .innerJoin('staff as a', 'a.email', 's.email')
        .select(['s.email', 's.csrf', 's.created_at', 's.last_seen_at', 's.stage', 's.pending_totp', 'a.password_changed_at'])
        .where('s.token_hash', '=', hash)
        .executeTakeFirst();
      if (!row) return undefined;
      const created = Date.parse(row.created_at);
      const idle = now.getTime() - Date.parse(row.last_seen_at) > SESSION_IDLE_MS;
      const old = now.getTime() - created > SESSION_MAX_MS;
      // A password changed after sign-in ends the sessions made with the old one.
      const stale = Date.parse(row.password_changed_at) > created;
      const stage = (SESSION_STAGES as readonly string[]).includes(row.stage) ? (row.stage as SessionStage) : undefined;
      // A second step still owed is owed for minutes, not for the session's hours.
      const pendingTooLong = stage !== 'signed-in' && now.getTime() - created > PENDING_MAX_MS;
      if (idle || old || stale || !stage || pendingTooLong) {
        await db.deleteFrom('staff_sessions').where('token_hash', '=', hash).execute();
        return undefined;
      }
      await db
        .updateTable('staff_sessions')
        .set({ last_seen_at: iso(now) })
        .where('token_hash', '=', hash)
        .execute();
      return { email: row.email, csrf: row.csrf, createdAt: row.created_at, stage, pendingTotp: row.pending_totp ?? undefined };
    },
    async setPendingTotp(token, sealed) {
      await db.updateTable('staff_sessions').set({ pending_totp: sealed }).where('token_hash', '=', tokenHash(token)).execute();
    },
    async endSession(token) {
      await db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash(token)).execute();
    },

    gate: (keys, now) =>
      signInTransaction(db, async (tx) => {
        const judged = await judgedBy(tx, keys, now);
        return gateOf(
          Object.fromEntries(
            await Promise.all(judged.map(async ([kind, key]) => [kind, await failureOf(tx, dialect, key, now)])),
          ),
          now,
        );
      }),
    attempt: (keys, now) =>
      signInTransaction(db, async (tx) => {
        const judged = await judgedBy(tx, keys, now);
        const trusted = judged.some(([kind]) => kind === 'device');
        return { ...(await countAttempt(tx, dialect, judged, now)), trusted };
      }),
    async trustedDevice(keys, now) {
      return (await judgedBy(db, keys, now)).some(([kind]) => kind === 'device');
    },
    busy: (address, now) => signInTransaction(db, (tx) => countAttempt(tx, dialect, [['address', `address:${address}`]], now)),
    async clearFailures(keys) {
      await signInTransaction(db, async (tx) => {
        const judged = await judgedBy(tx, keys, new Date());
        const judgedKeys = judged.map(([, key]) => key);
        await tx.deleteFrom('sign_in_failures').where('key', 'in', judgedKeys).execute();
      });
    },
    async rememberDevice(email, now) {
      const token = newToken();
      await db
        .insertInto('staff_devices')
        .values({ token_hash: tokenHash(token), email, created_at: iso(now) })
        .execute();
      // Cookies that ran out are cleared as new ones are made.
      await db
        .deleteFrom('staff_devices')
        .where('created_at', '<', iso(new Date(now.getTime() - DEVICE_MAX_MS)))
        .execute();
      return token;
    },
    async refusal(entry, now) {
      await db
        .insertInto('sign_in_refusals')
        .values({
          at: iso(now),
          account: entry.account.slice(0, 320),
          network: entry.network.slice(0, 100),
          reason: entry.reason,
        })
        .execute();
      // Kept for REFUSALS_KEPT_MS: enough to see an attack, not a record of every typo for ever.
      await db
        .deleteFrom('sign_in_refusals')
        .where('at', '<', iso(new Date(now.getTime() - REFUSALS_KEPT_MS)))
        .execute();
    },
    async refusals({ limit, offset = 0 }) {
      const total = await countOf(db.selectFrom('sign_in_refusals'));
      const rows = await db
        .selectFrom('sign_in_refusals')
        .select(['at', 'account', 'network', 'reason'])
        .orderBy('seq', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return { entries: rows, total };
    },

    async audit(actor, action, leadId, detail, now) {
      // A lead is named by its id; anything else that came in its place names no lead.
      const row = await db
        .insertInto('audit_log')
        .values({ at: iso(now), actor, action, lead_id: isUuid(leadId) ? leadId : null, detail })
        .returning('seq')
        .executeTakeFirstOrThrow();
      return n(row.seq);
    },
    async completeAudit(seq, detail) {
      await db.updateTable('audit_log').set({ detail }).where('seq', '=', seq).execute();
    },
    async auditLog(query) {
      const select = db
        .selectFrom('audit_log as a')
        .$if(Boolean(query.actor), (q) => q.where('a.actor', '=', query.actor!))
        .$if(Boolean(query.action), (q) => q.where('a.action', '=', query.action!))
        .$if(Boolean(query.hideViews) && !query.action, (q) => q.where('a.action', '<>', 'opened lead'))
        .$if(query.since !== undefined, (q) => q.where('a.at', '>=', iso(query.since!)))
        .$if(query.until !== undefined, (q) => q.where('a.at', '<', iso(query.until!)));
      const total = await countOf(select);
      const rows = await select
        .leftJoin('submissions as s', 's.id', 'a.lead_id')
        .select(['a.seq', 'a.at', 'a.actor', 'a.action', 'a.lead_id', 'a.detail', 's.id as kept_id'])
        .orderBy('a.seq', 'desc')
        .limit(Math.max(1, Math.trunc(query.limit)))
        .offset(Math.max(0, Math.trunc(query.offset ?? 0)))
        .execute();
      return {
        entries: rows.map((row) => ({
          ...auditEntry(row),
          leadKept: row.kept_id !== null && row.kept_id !== undefined,
        })),
        total,
      };
    },
  };
}
