/** The carousels' rules that need no browser, shared by the island (Carousel.tsx), the page that feeds it, and the tests. */

/** One `<source>` of a `<picture>`: a format and its responsive candidates. */
interface PictureSource {
  readonly type: string;
  readonly srcset: string;
}

/** A picture the build has already made (astro:assets), ready to be written as HTML. */
export interface PictureData {
  readonly src: string;
  readonly srcset?: string;
  readonly sizes?: string;
  readonly width: number;
  readonly height: number;
  /** Better formats first (AVIF, then WebP); empty for an SVG served as it is. */
  readonly sources: readonly PictureSource[];
}

export interface CarouselSlide {
  readonly picture: PictureData;
  /** Text alternative: what an image shows, or a client's name for a logo. */
  readonly alt: string;
}

/** Visitor-facing words, from src/i18n (templates keep their {index}/{count} placeholders). */
export interface CarouselLabels {
  readonly carousel: string;
  /** "{index} of {count}": each slide's name (APG). */
  readonly slide: string;
  readonly stopRotation: string;
  readonly startRotation: string;
  readonly previous: string;
  readonly next: string;
  /** "Show slide {index} of {count}": each dot's name. */
  readonly goTo: string;
  /** Announced when the visitor changes slides while rotation is stopped. */
  readonly status: string;
  /** Shown in place of a picture that failed to load. */
  readonly unavailable: string;
  /** What a screen reader calls the widget and each of its slides (aria-roledescription). */
  readonly roleCarousel: string;
  readonly roleSlide: string;
}

/** WAI-ARIA APG: rotation runs unless the visitor stopped it (the control, or keyboard focus inside) or a pointer is over it. */
export function isRotating(state: { readonly stoppedByVisitor: boolean; readonly pointerOver: boolean }): boolean {
  return !state.stoppedByVisitor && !state.pointerOver;
}

/** An image whose request has finished without a picture: it failed (404, network, bad data). */
export function isBrokenImage(img: { readonly complete: boolean; readonly naturalWidth: number }): boolean {
  return img.complete && img.naturalWidth === 0;
}

/**
 * Logos shown at once by viewport width (docs/requirements.md §12): 1 below 640 px, 2 from 640 px, 3 from 1024 px, as
 * the media queries of src/components/islands/carousel.css (a unit test keeps the two in step).
 */
export const LOGO_BREAKPOINTS = [
  { minWidth: 1024, perView: 3 },
  { minWidth: 640, perView: 2 },
  { minWidth: 0, perView: 1 },
] as const;

export function logosPerView(viewportWidth: number): 1 | 2 | 3 {
  const match = LOGO_BREAKPOINTS.find((b) => viewportWidth >= b.minWidth);
  return match ? match.perView : 1;
}
