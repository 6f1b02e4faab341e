/**
 * An audit entry's detail as the audit page shows it: its recorded filter (`filter: q=%D8%A7...`)
 * decoded, each right-to-left value isolated so it does not pull the "=" beside it; a filter that
 * does not parse stays as stored.
 */
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
