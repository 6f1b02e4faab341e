/**
 * The staff export's formats. CSV: UTF-8 with a byte-order mark (Excel then reads Arabic), RFC 4180;
 * a text cell a spreadsheet could take for a formula gets a leading apostrophe (CSV formula
 * injection). A telephone answer that is only a number is written in E.164 as `="+966504443322"`,
 * the one form Excel and Google Sheets read as text (no lost leading zero, no 9.67E+11); that
 * formula is ours and holds only digits and "+". JSON: values exactly as stored.
 *
 * Neither carries a raw control character: a row stored before the receiver cleaned visitor text,
 * or put in by hand, must not drive the terminal an export is printed to.
 */
import { defaultLocale, t, type Locale } from '../../i18n/index.ts';
import type { InboxLead } from './inbox-store.ts';
import { ARABIC_DIGITS, CALLING_CODES_BY_COUNTRY, PHONE_FIELDS, phoneDigits } from './lead-search.ts';
import { COUNTRIES } from '../../forms/countries.ts';
import { phoneE164 } from './lead-person.ts';
import { FORM_FILE_NAMES, FORM_LABELS, LANGUAGE_LABELS, STATUS_LABELS, answerColumns } from './lead-columns.ts';
import type { FormName, StoredSubmission } from '../store/store.ts';

export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of one cell, neutralised against formula injection. */
export function csvText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return neutralise(value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('; '));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return neutralise(value);
  return neutralise(JSON.stringify(value));
}

const PHONE_ONLY = /^\+?[\d(][\d ()\-./]*$/;
const PHONE_COLUMNS: ReadonlySet<string> = new Set(PHONE_FIELDS);

/** A telephone answer's cell text: E.164 (the lead's country's code for a number typed without one), else as typed. */
function csvPhone(value: unknown, country?: unknown): string {
  if (typeof value !== 'string') return csvText(value);
  let digits = value.replace(CONTROL, '').trim();
  for (const [from, to] of ARABIC_DIGITS) digits = digits.replaceAll(from, to);
  if (!PHONE_ONLY.test(digits)) return csvText(digits);
  const code = CALLING_CODES_BY_COUNTRY.get(COUNTRIES.find((entry) => entry.value === country)?.key ?? '');
  const national = /^0?([1-9]\d{5,13})$/.exec(phoneDigits(digits))?.[1];
  return `="${phoneE164(digits) || (code && national ? phoneE164(`+${code}${national}`) : '') || digits}"`;
}

/** C0 controls but tab, LF and CR; DEL; the C1 set (ESC, CSI, OSC and the like). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

function neutralise(text: string): string {
  const clean = text.replace(CONTROL, '');
  return FORMULA_START.test(clean) ? `'${clean}` : clean;
}

/** Stored text as one line a terminal shows and never obeys: control characters as \xHH, breaks and tabs as spaces. */
export function terminalText(text: string): string {
  return text
    .replace(/[\t\n\r]+/g, ' ')
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, (c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** JSON.stringify leaves DEL and the C1 controls raw; this writes them as \u escapes. */
function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007F-\u009F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

export function csvCell(value: unknown): string {
  return quoted(csvText(value));
}

export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** Every field name, in the order first met. */
export function fieldColumns(submissions: Iterable<Pick<StoredSubmission, 'fields'>>): string[] {
  const seen = new Set<string>();
  for (const submission of submissions) for (const key of Object.keys(submission.fields)) seen.add(key);
  return [...seen];
}

/** CSV text, chunk by chunk; `columns` (fieldColumns() over the same rows) are passed in so the rows can stream. */
export async function* toCsv(
  columns: readonly string[],
  submissions: AsyncIterable<StoredSubmission> | Iterable<StoredSubmission>,
): AsyncGenerator<string> {
  yield CSV_BOM + csvRow(['id', 'receivedAt', 'language', ...columns]);
  for await (const submission of submissions) {
    yield csvRow([
      submission.id,
      submission.receivedAt,
      submission.language,
      ...columns.map((column) => submission.fields[column]),
    ]);
  }
}

export async function* toJson(submissions: AsyncIterable<StoredSubmission> | Iterable<StoredSubmission>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const submission of submissions) {
    yield `${first ? '\n' : ',\n'}  ${jsonText({ id: submission.id, receivedAt: submission.receivedAt, language: submission.language, ...submission.fields })}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

/** A stored time on Riyadh's clock (UTC+3 all year) with the offset: `2026-11-25 09:30 +03:00`. */
export function riyadhStamp(iso: string): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  const local = new Date(time + 3 * 60 * 60 * 1000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)} +03:00`;
}

/** The calendar day (YYYY-MM-DD) and the hour of an instant in Riyadh. */
export function riyadhDay(now: Date): { readonly day: string; readonly hour: number } {
  const stamp = riyadhStamp(now.toISOString());
  return { day: stamp.slice(0, 10), hour: Number(stamp.slice(11, 13)) };
}

type ExportedLead = Pick<
  InboxLead,
  | 'id'
  | 'form'
  | 'receivedAt'
  | 'language'
  | 'fields'
  | 'status'
  | 'statusBy'
  | 'assignedTo'
  | 'note'
  | 'firstAnsweredAt'
  | 'followUpOn'
>;

/** A lead export's columns (the inbox's and the staff command's): what staff read in the inbox, then the form's answers. */
export function leadCsvHeader(form: FormName, locale: Locale = defaultLocale): string {
  return csvRow([
    'Lead ID',
    'Received (Riyadh time)',
    'Form',
    'Language',
    'Status',
    'Status set by',
    'Assigned to',
    t('admin.export.firstAnswered', {}, locale),
    t('admin.export.followUpOn', {}, locale),
    'Latest note',
    ...answerColumns(form).map((column) => column.label),
  ]);
}

export function leadCsvRow(lead: ExportedLead): string {
  const answers = answerColumns(lead.form).map((column) =>
    PHONE_COLUMNS.has(column.name)
      ? quoted(csvPhone(lead.fields[column.name], lead.fields['country']))
      : csvCell(lead.fields[column.name]),
  );
  return `${[
    lead.id,
    riyadhStamp(lead.receivedAt),
    FORM_LABELS[lead.form],
    LANGUAGE_LABELS[lead.language],
    STATUS_LABELS[lead.status],
    lead.statusBy ?? '',
    lead.assignedTo ?? '',
    lead.firstAnsweredAt ? riyadhStamp(lead.firstAnsweredAt) : '',
    lead.followUpOn ?? '',
    lead.note,
  ]
    .map(csvCell)
    .concat(answers)
    .join(',')}\r\n`;
}

/** A lead export's file name: `globaq-partner-applications-2026-11-25.csv`. */
export const leadCsvName = (form: FormName, day: string): string => `globaq-${FORM_FILE_NAMES[form]}-${day}.csv`;
