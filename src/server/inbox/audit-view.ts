/**
 * How the audit log page shows an entry's detail: the list's filter an entry records ("searched
 * leads", "exported leads": `filter: q=%D8%A7...&status=all`) is stored as the address wrote it;
 * staff read it decoded (`filter: q=الطائف&status=all`), Arabic as Arabic, each right-to-left
 * value isolated (U+2068 … U+2069) so it does not pull the "=" or the closing bracket beside it.
 */

/** A detail with its recorded filter decoded; a filter that does not parse stays as stored. */
export function readableDetail(detail: string): string {
  return detail.replace(/filter: ([^\s)]*)/g, (whole, query: string) => {
    try {
      const shown = (value: string) => (/[\u0590-\u08FF]/u.test(value) ? `\u2068${value}\u2069` : value);
      const pairs = [...new URLSearchParams(query)].map(([name, value]) => (value ? `${name}=${shown(value)}` : name));
      return `filter: ${pairs.join('&')}`;
    } catch {
      return whole;
    }
  });
}
