import { describe, expect, test } from 'vitest';
import { t } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { phoneHref, site, whatsappHref } from '../../src/data/site';
import { createSite, siteLinks } from '../../src/data/company';
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
    // A group with a page of its own (its service page) is a link to it; the others are text.
    expect(breadcrumbsFor('/Trainings/ISOTrainings/InternalAuditTraining')).toEqual([
      { label: 'Home', href: '/' },
      { label: 'Trainings', href: '/services/trainings' },
      { label: 'ISO Trainings' },
    ]);
  });
});

describe('company details from the build environment', () => {
  test('environment variables override the defaults', () => {
    const custom = createSite({ PUBLIC_SITE_EMAIL: 'hello@example.com.sa', PUBLIC_SITE_PHONE: '+966 13 812 3456', PUBLIC_SITE_WHATSAPP: '966501234567' });
    expect(custom.email).toBe('hello@example.com.sa');
    const links = siteLinks(custom);
    expect(links.phoneHref).toBe('tel:+966138123456');
    expect(links.whatsappHref).toMatch(/^https:\/\/wa\.me\/966501234567\?text=/);
  });

  test('no social profile has an address unless one is configured: by default none is', () => {
    const profiles = createSite({}).social;
    expect(profiles.length).toBeGreaterThan(0);
    for (const profile of profiles) {
      expect(profile.label, profile.network).not.toBe('');
      expect(profile.url, profile.network).toBeUndefined();
    }
  });

  test('a configured social address (https only) becomes that profile’s link; an empty one is no address', () => {
    const custom = createSite({ PUBLIC_SOCIAL_LINKEDIN: 'https://www.linkedin.com/company/example-sa', PUBLIC_SOCIAL_X: '' });
    const urls = Object.fromEntries(custom.social.map((profile) => [profile.network, profile.url]));
    expect(urls['linkedin']).toBe('https://www.linkedin.com/company/example-sa');
    expect(custom.social.filter((profile) => profile.url !== undefined)).toHaveLength(1);
    expect(() => createSite({ PUBLIC_SOCIAL_FACEBOOK: 'http://www.facebook.com/example' })).toThrow(/social/);
    expect(() => createSite({ PUBLIC_SOCIAL_INSTAGRAM: 'instagram.com/example' })).toThrow(/social/);
  });

  test('a malformed value fails, naming the field', () => {
    expect(() => createSite({ PUBLIC_SITE_EMAIL: 'not-an-address' })).toThrow(/email/);
    expect(() => createSite({ PUBLIC_SITE_PHONE: '013 812' })).toThrow(/phone/);
    expect(() => createSite({ PUBLIC_SITE_WHATSAPP: '+966 50' })).toThrow(/whatsapp/);
  });
});
