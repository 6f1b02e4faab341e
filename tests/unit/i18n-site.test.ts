import { describe, expect, test } from 'vitest';
import { t } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { phoneHref, site, whatsappHref } from '../../src/data/site';
import { CompanyDetailsError, chatNumberOf, createSite, details, siteLinks, type CompanyDetails } from '../../src/data/company';
import { overrideNotices } from '../../src/integrations/company-details';
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
    expect(breadcrumbsFor('/Trainings/ISOTrainings/InternalAuditTraining').map((c) => c.label)).toEqual([
      'Home',
      'Trainings',
      'ISO Trainings',
    ]);
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
    const custom = createSite({
      PUBLIC_SITE_EMAIL: 'hello@example.com.sa',
      PUBLIC_SITE_PHONE: '+966 13 812 3456',
      PUBLIC_SITE_WHATSAPP: '966501234567',
    });
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

describe('company details in src/data/company.yaml', () => {
  const edited = (change: (d: CompanyDetails) => void): CompanyDetails => {
    const copy = structuredClone(details);
    change(copy);
    return copy;
  };

  test('the chat number is the phone number unless set: changing the phone changes the chat button', () => {
    const site = createSite(
      {},
      edited((d) => (d.phone = '+966 13 812 3456')),
    );
    expect(site.whatsapp.number).toBe('966138123456');
    expect(siteLinks(site).whatsappHref).toMatch(/^https:\/\/wa\.me\/966138123456\?text=/);
    expect(
      createSite(
        {},
        edited((d) => (d.whatsapp.number = '966501234567')),
      ).whatsapp.number,
    ).toBe('966501234567');
    expect(chatNumberOf('+966 13 000 0000')).toBe('966130000000');
  });

  test('a local-format phone: one sentence naming the file, the field, the value and what to write (no JSON dump)', () => {
    const attempt = () =>
      createSite(
        {},
        edited((d) => (d.phone = '013 812 3456')),
      );
    expect(attempt).toThrow(CompanyDetailsError);
    expect(attempt).toThrow(
      'src/data/company.yaml: phone is "013 812 3456": write it in international format: "+", the country code, then the number, digits and spaces only, e.g. "+966 13 812 3456" (not "013 812 3456")',
    );
    expect(attempt).not.toThrow(/"code"|\[\s*\{/);
  });

  test('other malformed values name their field in the file; a social address names its network', () => {
    expect(() =>
      createSite(
        {},
        edited((d) => (d.email = 'info at globaq')),
      ),
    ).toThrow('src/data/company.yaml: email is "info at globaq": write an e-mail address');
    expect(() =>
      createSite(
        {},
        edited((d) => (d.social.x = 'x.com/globaq')),
      ),
    ).toThrow('src/data/company.yaml: social.x is "x.com/globaq": write the full address, starting with https://');
    expect(() =>
      createSite(
        {},
        edited((d) => (d.whatsapp.number = '+966 50')),
      ),
    ).toThrow('src/data/company.yaml: whatsapp.number is "+966 50": write digits only');
  });

  test("a malformed override names the variable, as an operator's override", () => {
    expect(() => createSite({ PUBLIC_SITE_PHONE: '013 812' })).toThrow(
      /^[\s\S]*PUBLIC_SITE_PHONE \(an operator's override of phone in the build's environment\) is "013 812": write it in international format/,
    );
  });

  test('the build announces each override set, with the value it replaces', () => {
    expect(overrideNotices({})).toEqual([]);
    expect(overrideNotices({ PUBLIC_SITE_PHONE: '+966 13 812 3456', PUBLIC_SOCIAL_X: '' })).toEqual([
      `PUBLIC_SITE_PHONE is set in this build's environment: phone is "+966 13 812 3456" (src/data/company.yaml has "${details.phone}"; an operator's override, docs/deploy.md)`,
    ]);
  });
});
