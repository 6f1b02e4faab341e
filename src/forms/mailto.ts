/**
 * A `mailto:` link that opens the visitor's e-mail program with a message to the company already
 * written from what they typed: the way out when the form's endpoint keeps failing, so the lead
 * is not lost. Long bodies are cut, because mail programs refuse very long links.
 */
export const MAILTO_BODY_MAX = 1500;

export function mailtoHref(to: string, subject: string, lines: readonly string[]): string {
  const body = lines
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const cut = body.length > MAILTO_BODY_MAX ? `${body.slice(0, MAILTO_BODY_MAX - 1)}…` : body;
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(cut)}`;
}
