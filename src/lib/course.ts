/**
 * A training's facts in the words of a language: the duration with the language's plural forms
 * (Arabic has six), the level, the languages and the ways it is delivered as lists.
 */
import type { z } from 'astro/zod';
import type { courseFactsSchema } from './content-schemas';
import { t, type Locale } from '../i18n/index.ts';

export type CourseFacts = z.infer<typeof courseFactsSchema>;

/** "2 days", «يومان», «3 أيام», «11 يومًا». */
export function daysText(days: number, locale: Locale): string {
  const form = new Intl.PluralRules(locale.lang).select(days);
  const key = form === 'zero' ? 'other' : form;
  return t(`course.days.${key}`, { n: days }, locale);
}

/** "In a classroom, at your premises, and online (live)": the items joined as a sentence begins. */
const list = (items: readonly string[], locale: Locale) => {
  const text = new Intl.ListFormat(locale.lang, { type: 'conjunction' }).format(items);
  return text.charAt(0).toLocaleUpperCase(locale.lang) + text.slice(1);
};

/** The facts as the page lists them: a label and its text, in order; the level unless `withLevel` is false. */
export function courseFactRows(facts: CourseFacts, locale: Locale, withLevel = true): { label: string; text: string }[] {
  return [
    {
      label: t('page.duration', {}, locale),
      text: facts.days === undefined ? t('course.daysVary', {}, locale) : daysText(facts.days, locale),
    },
    ...(withLevel ? [{ label: t('course.level', {}, locale), text: t(`course.level.${facts.level}`, {}, locale) }] : []),
    {
      label: t('course.languages', {}, locale),
      text: list(
        facts.languages.map((code) => t(`course.language.${code}`, {}, locale)),
        locale,
      ),
    },
    {
      label: t('course.delivery', {}, locale),
      text: list(
        facts.delivery.map((way) => t(`course.delivery.${way}`, {}, locale)),
        locale,
      ),
    },
    { label: t('course.assessment', {}, locale), text: facts.assessment },
    { label: t('course.certificate', {}, locale), text: facts.certificate },
  ];
}
