import { describe, expect, test } from 'vitest';
import { dateTimeFormat, numberFormat } from '../../src/lib/intl-formats';

describe('Intl formats are made once per locale and options', () => {
  const riyadh: Intl.DateTimeFormatOptions = { timeZone: 'Asia/Riyadh', calendar: 'gregory', dateStyle: 'long' };

  test('the same locale and options give the same format, which formats as a new one does', () => {
    const first = dateTimeFormat('ar-SA', riyadh);
    expect(dateTimeFormat('ar-SA', { ...riyadh })).toBe(first);
    const when = new Date('2026-11-28T06:00:00Z');
    expect(first.format(when)).toBe(new Intl.DateTimeFormat('ar-SA', riyadh).format(when));
  });

  test('another locale or other options give another format', () => {
    const arabic = dateTimeFormat('ar-SA', riyadh);
    expect(dateTimeFormat('en-GB', riyadh)).not.toBe(arabic);
    expect(dateTimeFormat('ar-SA', { ...riyadh, timeStyle: 'short' })).not.toBe(arabic);
    expect(numberFormat('ar-SA', { useGrouping: false }).format(2026)).toBe('٢٠٢٦');
    expect(numberFormat('ar-SA').format(2026)).toBe(new Intl.NumberFormat('ar-SA').format(2026));
    expect(numberFormat('ar-SA')).not.toBe(numberFormat('ar-SA', { useGrouping: false }));
  });
});
