/**
 * The words of the home page's two carousels, from src/i18n. Built on the server and handed to
 * the island as props, so the island never carries the dictionary; templates keep their
 * {placeholders} for the island to fill.
 */
import type { CarouselLabels } from '../../lib/carousel';
import { t } from '../../i18n';

export function carouselLabels(variant: 'hero' | 'logos'): CarouselLabels {
  const shared = {
    slide: t('carousel.slideLabel', { index: '{index}', count: '{count}' }),
    stopRotation: t('carousel.stopRotation'),
    startRotation: t('carousel.startRotation'),
    status: t('carousel.slideStatus', { index: '{index}', count: '{count}', name: '{name}' }),
  };
  return variant === 'hero'
    ? {
        ...shared,
        carousel: t('home.heroCarousel'),
        previous: t('carousel.previousSlide'),
        next: t('carousel.nextSlide'),
        goTo: t('carousel.goToSlide', { index: '{index}', count: '{count}' }),
        unavailable: t('home.imageUnavailable'),
      }
    : {
        ...shared,
        carousel: t('home.clientCarousel'),
        previous: t('home.previousLogo'),
        next: t('home.nextLogo'),
        goTo: t('home.goToLogo', { index: '{index}', count: '{count}' }),
        unavailable: t('home.logoUnavailable'),
      };
}
