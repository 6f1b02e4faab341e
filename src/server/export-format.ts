/**
 * The staff export's two formats.
 *
 * CSV: UTF-8 with a byte-order mark (Excel then reads Arabic names correctly; Google Sheets
 * ignores it), RFC 4180 (every cell quoted, quotes doubled, CRLF between rows), one column per
 * field after `id` and `receivedAt`. A text cell that a spreadsheet could take for a formula
 * (starting with =, +, -, @, tab or carriage return) gets a leading apostrophe, the usual
 * defence against CSV formula injection; the database keeps the text as the visitor typed it.
 * Lists (the partner form's multi-selects) are joined with "; ".
 *
 * JSON: an array of `{ id, receivedAt, ...fields }`, values exactly as stored.
 */
import type { StoredSubmission } from './store.ts';

export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of one cell, neutralised against formula injection. */
export function csvText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return neutralise(value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('; '));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return neutralise(value);
  return neutralise(JSON.stringify(value));
}

function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvCell(value: unknown): string {
  return `"${csvText(value).replaceAll('"', '""')}"`;
}

export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The field columns: every field name, in the order first met. */
export function fieldColumns(submissions: Iterable<Pick<StoredSubmission, 'fields'>>): string[] {
  const seen = new Set<string>();
  for (const submission of submissions) for (const key of Object.keys(submission.fields)) seen.add(key);
  return [...seen];
}

/**
 * CSV text, chunk by chunk. `columns` are the field columns (fieldColumns() over the same
 * rows); they are passed in so that the rows can be streamed.
 */
export async function* toCsv(columns: readonly string[], submissions: AsyncIterable<StoredSubmission> | Iterable<StoredSubmission>): AsyncGenerator<string> {
  yield CSV_BOM + csvRow(['id', 'receivedAt', ...columns]);
  for await (const submission of submissions) {
    yield csvRow([submission.id, submission.receivedAt, ...columns.map((column) => submission.fields[column])]);
  }
}

export async function* toJson(submissions: AsyncIterable<StoredSubmission> | Iterable<StoredSubmission>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const submission of submissions) {
    yield `${first ? '\n' : ',\n'}  ${JSON.stringify({ id: submission.id, receivedAt: submission.receivedAt, ...submission.fields })}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
