/** The layout of the mails to staff in English and Arabic: one section per language. */
import { locales, t, type LocaleCode, type UiKey } from '../../i18n/index.ts';
import { dateTimeFormat } from '../../lib/intl-formats.ts';
import { escapeHtml } from './escape.ts';

/** A list in a section: each row linked when it has an address, else followed by its id; `more` counts what was left out. */
export interface MailList {
  readonly heading: string;
  readonly rows: readonly { readonly text: string; readonly url?: string | undefined; readonly id?: string }[];
  readonly more?: string;
}

/** One language's part; an empty list is left out. */
export interface MailSection {
  readonly code: LocaleCode;
  readonly intro: readonly string[];
  readonly lists?: readonly MailList[];
  readonly after?: readonly string[];
  /** The link's sentence (the text part, or without an address) and its words (the HTML part). */
  readonly open: string;
  readonly openLink: string;
}

/** A time in Riyadh as the language writes it, on the Gregorian calendar (ar-SA's own default is the Hijri one). */
export function riyadhTimeIn(
  time: string | Date,
  code: LocaleCode,
  dateStyle: 'full' | 'long' | 'medium' = 'long',
  timeStyle: 'short' | undefined = 'short',
): string {
  const options = { timeZone: 'Asia/Riyadh', calendar: 'gregory', dateStyle, timeStyle } as const;
  return dateTimeFormat(locales[code].formatLocale, options).format(new Date(time));
}

export const bilingualSubject = (key: UiKey, values: Record<string, string | number>): string =>
  `${t(key, values, locales.en)} · ${t(key, values, locales.ar)}`;

/** The sections as the text part and the HTML part, each in its language's direction. */
export function bilingualMail(sections: readonly MailSection[], openUrl: string | undefined): { text: string; html: string } {
  const listsOf = (part: MailSection) => (part.lists ?? []).filter((list) => list.rows.length > 0);
  const text = sections
    .map((part) =>
      [
        part.intro.join('\n\n'),
        ...listsOf(part).flatMap((list) => [
          '',
          list.heading,
          ...list.rows.map((row) => `- ${row.text}${row.url ? `\n  ${row.url}` : row.id ? ` · ${row.id}` : ''}`),
          ...(list.more ? [list.more] : []),
        ]),
        ...(part.after ?? []).flatMap((paragraph) => ['', paragraph]),
        '',
        part.open,
      ].join('\n'),
    )
    .join('\n\n— — —\n\n');
  const link = (href: string | undefined, label: string) =>
    href ? `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>` : escapeHtml(label);
  const paragraph = (words: string) => `<p style="white-space:pre-wrap">${escapeHtml(words)}</p>`;
  const html = sections.map((part) => {
    const { lang, dir } = locales[part.code];
    return [
      `<section lang="${lang}" dir="${dir}" style="text-align:start">`,
      ...part.intro.map(paragraph),
      ...listsOf(part).map(
        (list) =>
          `<h2 style="font-size:16px">${escapeHtml(list.heading)}</h2><ul>${list.rows.map((row) => `<li>${link(row.url, row.text)}</li>`).join('')}</ul>${list.more ? paragraph(list.more) : ''}`,
      ),
      ...(part.after ?? []).map(paragraph),
      `<p>${openUrl ? link(openUrl, part.openLink) : escapeHtml(part.open)}</p>`,
      '</section>',
    ].join('\n');
  });
  return {
    text,
    html: [
      '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body style="font-family:sans-serif">',
      html.join('\n<hr>\n'),
      '</body></html>',
    ].join('\n'),
  };
}
