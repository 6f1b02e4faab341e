/**
 * A person's data as one file, for a person who asks what we hold about them (docs/staff-guide.md):
 * every lead of theirs with all kept with it, and the audit entries naming those leads. JSON for
 * machines; HTML for the person, one printable page in their language. Made by the inbox and the
 * staff command, both recorded with the leads' ids only: the person's e-mail or phone is never
 * written to the audit log or the logs.
 */
import { getLocale, t, type Locale, type UiKey } from '../../i18n/index.ts';
import { riyadhDay, riyadhStamp } from './export-format.ts';
import type { LeadEvent, PersonData } from './inbox-store.ts';
import { adminLabels } from './admin-locale.ts';
import { labelledFields } from './lead-columns.ts';
import { oneOf } from '../store/store.ts';
import { escapeHtml } from '../mail/escape.ts';

const PERSON_FORMATS = ['json', 'html'] as const;
type PersonFormat = (typeof PERSON_FORMATS)[number];
export const isPersonFormat = oneOf(PERSON_FORMATS);

export const PERSON_EXPORT_ACTION = "exported a person's data";

/** The audit entry's detail: how many leads, the format, and the leads' ids; nothing the person wrote. */
export const personAuditDetail = (data: PersonData, format: PersonFormat): string =>
  `${data.leads.length} lead${data.leads.length === 1 ? '' : 's'} as ${format}: ${data.leads.map((entry) => entry.lead.id).join(' ')}`;

/** The person's language: their latest lead's. */
function personLocale(data: PersonData): Locale {
  const latest = [...data.leads].sort((a, b) => a.lead.receivedAt.localeCompare(b.lead.receivedAt)).at(-1);
  return getLocale(latest?.lead.language);
}

/** The file as JSON: stable keys, values as stored. */
function personJson(data: PersonData, now: Date): string {
  const file = {
    generatedAt: now.toISOString(),
    leads: data.leads.map(({ lead, files, timeline }) => ({
      id: lead.id,
      form: lead.form,
      receivedAt: lead.receivedAt,
      language: lead.language,
      status: lead.status,
      heldForReview: lead.review === 'held',
      assignedTo: lead.assignedTo ?? null,
      fields: lead.fields,
      files: files.map((file) => ({ name: file.name, type: file.type, size: file.size })),
      timeline: timeline.map((event) => ({ at: event.at, by: event.actor ?? null, kind: event.kind, detail: event.detail })),
    })),
    audit: data.audit.map((entry) => ({
      at: entry.at,
      by: entry.actor,
      action: entry.action,
      leadId: entry.leadId ?? null,
      detail: entry.detail,
    })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-inline-size:50rem;padding-inline:1rem;color:#111}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-block-start:2rem;border-block-end:1px solid #999}
table{border-collapse:collapse;inline-size:100%;margin-block:.5rem 1rem}th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:start;vertical-align:top;white-space:pre-wrap;overflow-wrap:anywhere}
th{inline-size:30%;background:#f2f2f2}@media print{body{margin:0}h2{break-after:avoid}}`;

/** What follows a timeline entry's title: a note's text or a downloaded file's name. */
const eventText = (event: LeadEvent): string => (event.kind === 'note' || event.kind === 'download' ? event.detail : '');

/** The file as HTML: self-contained (no script, no outside file), every value escaped. */
export function personHtml(data: PersonData, now: Date): string {
  const locale = personLocale(data);
  const tr = (key: UiKey, values: Record<string, string | number> = {}) => escapeHtml(t(key, values, locale));
  const time = (iso: string) => escapeHtml(riyadhStamp(iso));
  // A timeline entry as the lead page names it.
  const eventTitle = adminLabels(locale).event;
  const rows = (pairs: readonly (readonly [string, string])[]) =>
    `<table>${pairs.map(([label, value]) => `<tr><th scope="row">${label}</th><td>${value}</td></tr>`).join('')}</table>`;
  const sections = data.leads.map(({ lead, files, timeline }) => {
    const answers = labelledFields(lead, locale)
      .filter(({ text }) => text !== '')
      .map(({ label, text }) => [escapeHtml(label), escapeHtml(text)] as const);
    const fileList = files.length
      ? `<ul>${files.map((file) => `<li><bdi>${escapeHtml(file.name)}</bdi> (${escapeHtml(file.type)}, ${tr('admin.person.file.bytes', { count: file.size })})</li>`).join('')}</ul>`
      : `<p>${tr('admin.person.file.none')}</p>`;
    const events = timeline.length
      ? `<ul>${timeline.map((event) => `<li>${time(event.at)}: ${escapeHtml(eventTitle(event))}${eventText(event) ? `: <bdi>${escapeHtml(eventText(event))}</bdi>` : ''}</li>`).join('')}</ul>`
      : `<p>${tr('admin.person.file.none')}</p>`;
    return `<section><h2>${tr(`admin.form.${lead.form}`)}: ${time(lead.receivedAt)}</h2>
${rows([
  [tr('admin.person.file.reference'), escapeHtml(lead.id)],
  [tr('admin.lead.status'), tr(`admin.status.${lead.status}`)],
  ...answers,
])}
<h3>${tr('admin.lead.files')}</h3>${fileList}
<h3>${tr('admin.lead.timeline')}</h3>${events}</section>`;
  });
  const audit = data.audit.length
    ? `<ul>${data.audit.map((entry) => `<li>${time(entry.at)}: ${escapeHtml(entry.action)}${entry.leadId ? ` (${escapeHtml(entry.leadId)})` : ''}</li>`).join('')}</ul>`
    : `<p>${tr('admin.person.file.none')}</p>`;
  return `<!doctype html>
<html lang="${locale.code}" dir="${locale.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${tr('admin.person.file.title')}</title><style>${STYLE}</style></head>
<body>
<h1>${tr('admin.person.file.title')}</h1>
<p>${tr('admin.person.file.intro', { time: riyadhStamp(now.toISOString()), count: data.leads.length })}</p>
${sections.join('\n')}
<h2>${tr('admin.person.file.audit')}</h2>${audit}
</body>
</html>
`;
}

export function personFile(data: PersonData, format: PersonFormat, now: Date): { text: string; type: string; name: string } {
  const name = `globaq-person-${riyadhDay(now).day}.${format}`;
  return format === 'json'
    ? { text: personJson(data, now), type: 'application/json; charset=utf-8', name }
    : { text: personHtml(data, now), type: 'text/html; charset=utf-8', name };
}
