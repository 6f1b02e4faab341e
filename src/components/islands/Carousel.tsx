/**
 * An auto-rotating picture carousel (WAI-ARIA APG carousel pattern): the home page's hero images and client logos
 * (docs/requirements.md §4). The server renders it whole, first slide in place at its final size, so hydrating changes
 * nothing on screen; layout lives in carousel.css (no inline styles: CSP). The rotation control is the first tab stop;
 * rotation stops under the pointer, and once keyboard focus enters until the visitor restarts it. Embla loops only when
 * the slides out of view can fill it, so fewer than `perView` + 2 are drawn more than once (`drawn`), the copies hidden
 * from screen readers and the keyboard. Reduced motion: no animation. A picture that fails is replaced by a placeholder.
 */
import { useCallback, useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type FocusEvent } from 'react';
import useEmblaCarousel from 'embla-carousel-react';
import Autoplay from 'embla-carousel-autoplay';
import { fillTemplate } from '../../i18n/template';
import { isBrokenImage, isRotating, type CarouselLabels, type CarouselSlide } from '../../lib/carousel';
import './carousel.css';

interface CarouselProps {
  /** Prefix of element ids; unique on the page. */
  readonly id: string;
  readonly variant: 'hero' | 'logos';
  readonly slides: readonly CarouselSlide[];
  /** Time each slide stays before the next one comes in. */
  readonly intervalMs: number;
  readonly labels: CarouselLabels;
  /** Writing direction of the page, so the carousel moves the reading way in Arabic too. */
  readonly dir: 'ltr' | 'rtl';
  /** Load the first picture at once with high priority (the page's largest picture). */
  readonly priorityFirst?: boolean;
}

function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setReduced(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return reduced;
}

/** The arrows' and rotation button's pictures; the arrows turn round in Arabic (carousel.css). */
const ICON_PATHS = { previous: 'M15 5l-7 7 7 7', next: 'M9 5l7 7-7 7', pause: 'M8 5v14M16 5v14', play: 'M8 5l11 7-11 7z' };

function Icon({ name }: { readonly name: keyof typeof ICON_PATHS }) {
  const directional = name === 'previous' || name === 'next';
  return (
    <svg
      className={`carousel__icon carousel__icon--${directional ? 'directional' : name}`}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
    >
      {name === 'play' ? (
        <path d={ICON_PATHS.play} fill="currentColor" />
      ) : (
        <path
          d={ICON_PATHS[name]}
          fill="none"
          stroke="currentColor"
          strokeWidth={directional ? '2.5' : '3'}
          strokeLinecap="round"
          strokeLinejoin={directional ? 'round' : undefined}
        />
      )}
    </svg>
  );
}

export default function Carousel({ id, variant, slides, intervalMs, labels, dir, priorityFirst = false }: CarouselProps) {
  const count = slides.length;
  const perView = variant === 'logos' ? 3 : 1; // At most (LOGO_BREAKPOINTS): 3 logos, 1 hero picture.
  const drawn = Array.from({ length: count < 2 ? 1 : Math.ceil((perView + 2) / count) }, () => slides).flat();
  const slidesId = `${id}-slides`;
  const reducedMotion = usePrefersReducedMotion();
  // The plugin is created once; the carousel starts and stops it from the state below.
  const [autoplay] = useState(() =>
    Autoplay({ delay: intervalMs, playOnInit: false, stopOnInteraction: false, stopOnMouseEnter: false, stopOnFocusIn: false }),
  );
  const [viewportRef, api] = useEmblaCarousel({ loop: true, align: 'start', direction: dir, duration: 30 }, [autoplay]);

  const [selected, setSelected] = useState(0);
  const [stoppedByVisitor, setStoppedByVisitor] = useState(false);
  const [pointerOver, setPointerOver] = useState(false);
  const [failed, setFailed] = useState<readonly boolean[]>(() => slides.map(() => false));
  /** Slides loaded eagerly once hydrated: the current one and its neighbours, fetched before they slide in. */
  const [warm, setWarm] = useState<ReadonlySet<number>>(() => new Set());
  const [announcement, setAnnouncement] = useState('');
  const images = useRef<(HTMLImageElement | null)[]>([]);
  const rootRef = useRef<HTMLElement>(null);
  const rotating = isRotating({ stoppedByVisitor, pointerOver });
  // Dragging restarts the plugin on release; only the carousel's own state may do that.
  const onPlay = useEffectEvent(() => {
    if (!rotating) api?.plugins().autoplay?.stop();
  });

  const markFailed = useCallback((index: number) => {
    setFailed((current) => (current[index] ? current : current.map((value, i) => value || i === index)));
  }, []);

  // What the visitor did before the island started: focus already inside stops rotation, a pointer already on it holds it.
  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && root.contains(active) && active.matches(':focus-visible')) setStoppedByVisitor(true);
    if (root.matches(':hover')) setPointerOver(true);
  }, []);

  // A picture that failed before the island hydrated fired its error event unseen: look now.
  useEffect(() => {
    images.current.forEach((img, index) => {
      if (img && isBrokenImage(img)) markFailed(index % count);
    });
  }, [markFailed, count]);

  useEffect(() => {
    if (!api) return;
    const onSelect = () => {
      const index = api.selectedScrollSnap();
      setSelected(index % count);
      setWarm((current) => {
        const wanted = Array.from({ length: perView + 2 }, (_, k) => (index - 1 + k + drawn.length) % drawn.length);
        return wanted.every((i) => current.has(i)) ? current : new Set([...current, ...wanted]);
      });
    };
    onSelect();
    api.on('select', onSelect).on('reInit', onSelect).on('autoplay:play', onPlay);
    return () => {
      api.off('select', onSelect).off('reInit', onSelect).off('autoplay:play', onPlay);
    };
  }, [api, count, drawn.length, perView]);

  useEffect(() => {
    const plugin = api?.plugins().autoplay;
    if (!plugin) return;
    if (rotating) plugin.play(reducedMotion);
    else plugin.stop();
  }, [api, rotating, reducedMotion]);

  const announce = (index: number) => {
    const slide = slides[index % count];
    if (!slide || rotating) return;
    setAnnouncement(fillTemplate(labels.status, { index: (index % count) + 1, count, name: slide.alt }));
  };

  const go = (target: 'previous' | 'next' | number) => {
    if (!api) return;
    if (target === 'previous') api.scrollPrev(reducedMotion);
    else if (target === 'next') api.scrollNext(reducedMotion);
    else api.scrollTo(target, reducedMotion);
    // A touch visitor (no hover) keeps rotation: give the chosen slide its full time.
    api.plugins().autoplay?.reset();
    announce(api.selectedScrollSnap());
  };

  // APG: keyboard focus entering the carousel stops rotation until the visitor restarts it (a click is under the pointer).
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const from = event.relatedTarget;
    if (from instanceof Node && event.currentTarget.contains(from)) return;
    if (event.target.matches(':focus-visible')) setStoppedByVisitor(true);
  };

  return (
    <section
      ref={rootRef}
      className={`carousel carousel--${variant}`}
      aria-roledescription={labels.roleCarousel}
      aria-label={labels.carousel}
      data-ready={api ? 'true' : undefined}
      data-stopped={stoppedByVisitor ? 'true' : undefined}
      onMouseEnter={() => setPointerOver(true)}
      onMouseLeave={() => setPointerOver(false)}
      onFocus={onFocus}
    >
      <div className="carousel__controls">
        <button
          type="button"
          className="carousel__button carousel__rotation"
          aria-label={stoppedByVisitor ? labels.startRotation : labels.stopRotation}
          data-start-label={labels.startRotation}
          data-stop-label={labels.stopRotation}
          onClick={() => setStoppedByVisitor((stopped) => !stopped)}
        >
          {/* Both drawn; carousel.css shows the one for [data-stopped]. */}
          <Icon name="pause" />
          <Icon name="play" />
        </button>
        <button
          type="button"
          className="carousel__button carousel__previous"
          aria-controls={slidesId}
          aria-label={labels.previous}
          onClick={() => go('previous')}
        >
          <Icon name="previous" />
        </button>
        <div className="carousel__dots">
          {slides.map((_, index) => (
            <button
              key={index}
              type="button"
              className="carousel__dot"
              aria-controls={slidesId}
              aria-label={fillTemplate(labels.goTo, { index: index + 1, count })}
              aria-current={index === selected ? 'true' : undefined}
              onClick={() => go(index)}
            />
          ))}
        </div>
        <button
          type="button"
          className="carousel__button carousel__next"
          aria-controls={slidesId}
          aria-label={labels.next}
          onClick={() => go('next')}
        >
          <Icon name="next" />
        </button>
      </div>

      <div className="carousel__viewport" ref={viewportRef}>
        <div className="carousel__slides" id={slidesId}>
          {drawn.map((slide, index) => (
            <div
              key={index}
              className="carousel__slide"
              role="group"
              aria-roledescription={labels.roleSlide}
              aria-label={fillTemplate(labels.slide, { index: (index % count) + 1, count })}
              aria-hidden={index >= count || undefined}
              inert={index >= count || undefined}
            >
              {/* The placeholder is in the server's HTML too, shown (carousel.css) on a frame marked data-failed. */}
              <div className="carousel__frame" data-failed={failed[index % count] ? '' : undefined}>
                <div className="carousel__fallback">
                  <span>{labels.unavailable}</span>
                  <span className="visually-hidden">{slide.alt}</span>
                </div>
                {failed[index % count] ? null : (
                  <picture>
                    {slide.picture.sources.map((source) => (
                      <source key={source.type} type={source.type} srcSet={source.srcset} sizes={slide.picture.sizes} />
                    ))}
                    <img
                      ref={(img) => {
                        images.current[index] = img;
                      }}
                      className="carousel__image"
                      src={slide.picture.src}
                      srcSet={slide.picture.srcset}
                      sizes={slide.picture.sizes}
                      width={slide.picture.width}
                      height={slide.picture.height}
                      alt={slide.alt}
                      loading={(priorityFirst && index === 0) || warm.has(index) ? 'eager' : 'lazy'}
                      decoding="async"
                      // The words a broken picture shows without JavaScript (carousel.css draws them).
                      data-unavailable={labels.unavailable}
                      {...(priorityFirst && index === 0 ? { fetchPriority: 'high' as const } : {})}
                      onError={() => markFailed(index % count)}
                    />
                  </picture>
                )}
              </div>
            </div>
          ))}
        </div>
      </div>

      <p className="visually-hidden" aria-live={rotating ? 'off' : 'polite'} aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}
