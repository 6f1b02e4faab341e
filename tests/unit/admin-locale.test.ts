/** The staff inbox's language: how it is chosen, where its switch returns to, its labels. */
import { describe, expect, test } from 'vitest';
import { adminLabels, chooseAdminLocale, fromAcceptLanguage, languageReturnPath } from '../../src/server/inbox/admin-locale';
import { FORM_LABELS, STATUS_LABELS } from '../../src/server/inbox/lead-columns';
import { LEAD_STATUSES } from '../../src/server/inbox/inbox-store';
import { locales } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';

describe('the inbox language', () => {
  test('the switch’s cookie decides; without it Accept-Language by weight; else English', () => {
    expect(chooseAdminLocale('ar', 'en-US,en;q=0.9')).toBe(locales.ar);
    expect(chooseAdminLocale('en', 'ar-SA')).toBe(locales.en);
    expect(chooseAdminLocale(undefined, 'ar-SA,ar;q=0.9,en;q=0.8')).toBe(locales.ar);
    expect(chooseAdminLocale(undefined, 'fr-FR, en;q=0.5, ar;q=0.7')).toBe(locales.ar);
    expect(chooseAdminLocale(undefined, 'fr-FR, de')).toBe(locales.en);
    expect(chooseAdminLocale(undefined, undefined)).toBe(locales.en);
    expect(chooseAdminLocale('xx', 'ar;q=0')).toBe(locales.en);
    expect(fromAcceptLanguage('en;q=0.2, ar')).toBe('ar');
  });

  test('the switch returns to an inbox page or a sign-in step, never elsewhere', () => {
    expect(languageReturnPath('/admin/leads/1?q=a')).toBe('/admin/leads/1?q=a');
    expect(languageReturnPath('/admin/login')).toBe('/admin/login');
    expect(languageReturnPath('/admin/login?next=%2Fadmin%2Fleads%2F1')).toBe('/admin/login?next=%2Fadmin%2Fleads%2F1');
    expect(languageReturnPath('/admin/login?next=https://evil.example')).toBe('/admin/login?next=%2Fadmin');
    expect(languageReturnPath('/admin/login/code')).toBe('/admin/login/code');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', '/admin/login/../../x', '/admin/logout'])
      expect(languageReturnPath(bad), bad).toBe('/admin');
  });

  test('statuses and forms: the English words the exports write are the dictionary’s, and Arabic has its own', () => {
    for (const status of LEAD_STATUSES) {
      expect(STATUS_LABELS[status]).toBe(en[`admin.status.${status}`]);
      expect(adminLabels(locales.ar).status(status)).toBe(ar[`admin.status.${status}`]);
    }
    expect(FORM_LABELS.partner).toBe('Partner application');
    expect(adminLabels(locales.ar).form('partner')).toBe('طلب شراكة');
    expect(adminLabels(undefined).language('ar')).toBe('Arabic');
  });
});
