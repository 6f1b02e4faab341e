/**
 * The words of the home page's two carousels, from src/i18n. Built on the server and handed to
 * the island as props, so the island never carries the dictionary; templates keep their
 * {placeholders} for the island to fill.
 */
import type { CarouselLabels } from '../../lib/carousel';
import { defaultLocale, t, type Locale, type UiKey } from '../../i18n';

export function carouselLabels(variant: 'hero' | 'logos', locale: Locale = defaultLocale): CarouselLabels {
  const say = (key: UiKey, values: Record<string, string> = {}) => t(key, values, locale);
  const shared = {
    slide: say('carousel.slideLabel', { index: '{index}', count: '{count}' }),
    stopRotation: say('carousel.stopRotation'),
    startRotation: say('carousel.startRotation'),
    status: say('carousel.slideStatus', { index: '{index}', count: '{count}', name: '{name}' }),
    roleCarousel: say('carousel.role'),
    roleSlide: say('carousel.slideRole'),
  };
  return variant === 'hero'
    ? {
        ...shared,
        carousel: say('home.heroCarousel'),
        previous: say('carousel.previousSlide'),
        next: say('carousel.nextSlide'),
        goTo: say('carousel.goToSlide', { index: '{index}', count: '{count}' }),
        unavailable: say('home.imageUnavailable'),
      }
    : {
        ...shared,
        carousel: say('home.clientCarousel'),
        previous: say('home.previousLogo'),
        next: say('home.nextLogo'),
        goTo: say('home.goToLogo', { index: '{index}', count: '{count}' }),
        unavailable: say('home.logoUnavailable'),
      };
}
