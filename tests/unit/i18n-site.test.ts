import { describe, expect, test } from 'vitest';
import { t } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { phoneHref, site, whatsappHref } from '../../src/data/site';
import { breadcrumbsFor } from '../../src/lib/breadcrumbs';

describe('UI strings', () => {
  test('placeholders are filled, and a missing value is an error', () => {
    expect(t('footer.copyright', { year: 2031 })).toBe('© 2031 Globaq. All rights reserved.');
    expect(() => t('footer.copyright')).toThrow('Missing value "year"');
  });

  test('the tagline is the specification’s', () => {
    expect(en['site.tagline']).toBe('Quality Assurance Excellence');
  });
});

describe('site data', () => {
  test('contact details are well formed', () => {
    expect(site.address.locality).toBe('Al-Khobar');
    expect(phoneHref).toMatch(/^tel:\+\d+$/);
    expect(site.social).toHaveLength(4);
    expect(site.mission).toBe('Simple, Efficient and Timely');
  });

  test('the chat link carries the prefilled greeting', () => {
    const url = new URL(whatsappHref);
    expect(url.hostname).toBe('wa.me');
    expect(url.searchParams.get('text')).toBe(site.whatsapp.greeting);
  });
});

describe('breadcrumbs', () => {
  test('follow the menu groups', () => {
    expect(breadcrumbsFor('/Trainings/ISOTrainings/InternalAuditTraining').map((c) => c.label)).toEqual(['Home', 'Trainings', 'ISO Trainings']);
    expect(breadcrumbsFor('/ISOConsultancy').map((c) => c.label)).toEqual(['Home']);
    expect(breadcrumbsFor('/nowhere')).toEqual([]);
  });
});
