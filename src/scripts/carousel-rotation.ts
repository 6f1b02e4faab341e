/**
 * The home page carousels' rotation before their islands start (docs/requirements.md §4: a new
 * hero picture every 1.5 s, the client logos every 3 s), without React: each island
 * (src/components/islands/Carousel.tsx, React and embla) loads only when the visitor reaches for
 * its carousel, so the page runs no long task and downloads no React before interaction. Until
 * then this script moves the server's strip of slides one place every interval, keeps the dots'
 * aria-current (on the first slide in view), and follows the carousel's rules: rotation holds
 * while the pointer is over it, keyboard focus entering it stops it, and the rotation control,
 * previous, next and the dots work (a tap on a phone reaches them before the island).
 *
 * It loops as embla's `loop` does: the strip moves one slide further each step and never back,
 * and a slide that has left the view at the start is moved on by whole laps to the end of the
 * loop (loopStart and loopShift in src/lib/carousel.ts), so with 1, 2 or 3 slides in view none is
 * ever blank and no slide crosses the view. The script only writes numbers through the CSSOM
 * (`--carousel-step` on the strip, `--carousel-shift` on each slide; inline style attributes are
 * blocked by the CSP): carousel.css turns them into transforms with the slides in view at the
 * current width (`--carousel-per-view`) and the page's direction, so a resize or right to left
 * needs nothing here. With prefers-reduced-motion the slides change without animation.
 *
 * The page asks for this script only once its largest picture is drawn (src/lib/after-first-view.ts,
 * written into the page at build): a script the HTML named would share the connection with that
 * picture. Rotation starts at the load event anyway.
 *
 * When the island starts it takes the slide shown and the stopped state over (TAKEOVER_EVENT) and
 * this stops, holding the same picture with the strip itself unmoved for embla to measure; once
 * embla has placed the slides it calls `release`, and this clears all it set, so embla's own
 * transforms are the only ones left and nothing moves between the two.
 */
import {
  TAKEOVER_EVENT,
  isBrokenImage,
  loopShift,
  loopStart,
  shortestStep,
  wrapIndex,
  type TakeoverDetail,
} from '../lib/carousel';

/** Longer than the strip's glide in carousel.css (0.5 s): a move after this starts from rest. */
const GLIDE_MS = 600;

/**
 * docs/requirements.md §4: a picture that fails to load shows its placeholder ("Image not
 * available", "Logo not available": in the server's HTML, in the page's language) in its place,
 * before the island starts too. A picture that failed before this script ran is found by its
 * state; one that fails later (a slide fetched as it comes near) by its error event, which does
 * not bubble: caught on the way down. The island starts from the marked frame and keeps it.
 */
function markFailedPictures(root: HTMLElement): void {
  const mark = (img: EventTarget | null) => {
    if (img instanceof HTMLImageElement) img.closest<HTMLElement>('.carousel__frame')?.setAttribute('data-failed', '');
  };
  root.addEventListener('error', (event) => mark(event.target), { capture: true });
  for (const img of root.querySelectorAll('img')) if (isBrokenImage(img)) mark(img);
}

function setUp(root: HTMLElement): void {
  // The page asks for this script once its first view is drawn, or when the visitor reaches for
  // a carousel (src/lib/after-first-view.ts): by then that carousel's island may have been
  // started (Astro drops `ssr` from the island as it starts it), and rotates it itself.
  if (root.closest('astro-island:not([ssr])')) return;
  const interval = Number(root.dataset['interval']);
  const track = root.querySelector<HTMLElement>('.carousel__slides');
  const slides = [...root.querySelectorAll<HTMLElement>('.carousel__slide')];
  const dots = [...root.querySelectorAll<HTMLElement>('.carousel__dot')];
  const rotation = root.querySelector<HTMLElement>('.carousel__rotation');
  const count = slides.length;
  if (!track || !rotation || count < 2 || !(interval > 0)) return;
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

  /** Slides moved so far, the reading way (below 0 once the visitor went back past the first). */
  let step = 0;
  /** The steps the strip has shown since it last stood still, and when it last moved. */
  let lo = 0;
  let hi = 0;
  let movedAt = -Infinity;
  /** The first of the positions the slides stand in (loopStart), and each slide's shift. */
  let start = 0;
  const shifts = slides.map(() => 0);
  let perView = 1;
  let near = false;
  let stopped = false;
  let pointerOver = false;
  let handedOver = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** Slides in view at the current width: carousel.css sets it with the layout's media queries. */
  const readPerView = () => Math.max(1, Math.round(Number(getComputedStyle(root).getPropertyValue('--carousel-per-view')) || 1));
  const place = (first: number) => {
    start = first;
    slides.forEach((slide, i) => {
      const shift = loopShift(i, first, count);
      if (shift === shifts[i]) return;
      shifts[i] = shift;
      slide.style.setProperty('--carousel-shift', String(shift));
    });
  };
  const setStep = (next: number) => {
    step = next;
    track.style.setProperty('--carousel-step', String(next));
  };
  /** Changes the strip without its glide (carousel.css has none under data-instant). */
  const instantly = (change: () => void) => {
    root.dataset['instant'] = '';
    change();
    // The new place is styled now, while the glide is off; a glide still running is cut short.
    void getComputedStyle(track).transform;
    delete root.dataset['instant'];
  };
  /** The pictures about to come into view are fetched before they slide in: the next `perView`. */
  const warm = () => {
    if (!near) return;
    for (let k = perView; k < 2 * perView; k++) {
      const img = slides[wrapIndex(step, k, count)]?.querySelector('img');
      if (img && img.loading !== 'eager') img.loading = 'eager';
    }
  };
  const show = (target: number) => {
    perView = readPerView();
    const now = performance.now();
    if (reducedMotion.matches || now - movedAt > GLIDE_MS) {
      lo = hi = step;
      // At rest, far from the start: the same view, by whole laps nearer to it, so the numbers
      // stay small however long the page stays open.
      const laps = Math.floor(step / count) * count;
      if (laps !== 0) {
        instantly(() => {
          place(start - laps);
          setStep(step - laps);
        });
        target -= laps;
        lo = hi = step;
      }
    }
    const from = Math.min(lo, target);
    const to = Math.max(hi, target);
    const first = loopStart(from, to, perView, count);
    if (first === undefined) {
      // Further than the slides can cover while gliding (quick clicks): there at once.
      instantly(() => {
        place(loopStart(target, target, perView, count) ?? target);
        setStep(target);
      });
      lo = hi = target;
    } else {
      lo = from;
      hi = to;
      place(first);
      setStep(target);
    }
    movedAt = now;
    const index = wrapIndex(step, 0, dots.length); // One dot a logo: the copies the island draws of too few have none.
    dots.forEach((dot, i) => (i === index ? dot.setAttribute('aria-current', 'true') : dot.removeAttribute('aria-current')));
    warm();
  };
  const schedule = () => {
    clearTimeout(timer);
    if (handedOver || stopped || pointerOver || document.readyState !== 'complete') return;
    timer = setTimeout(() => {
      show(step + 1);
      schedule();
    }, interval);
  };
  const setStopped = (value: boolean) => {
    stopped = value;
    if (value) root.dataset['stopped'] = 'true';
    else delete root.dataset['stopped'];
    const label = value ? rotation.dataset['startLabel'] : rotation.dataset['stopLabel'];
    if (label) rotation.setAttribute('aria-label', label);
    schedule();
  };
  /** Everything this set, gone: what the island's embla draws is all that is left. */
  const release = () => {
    clearTimeout(timer);
    delete root.dataset['rotating'];
    delete root.dataset['handover'];
    track.style.removeProperty('--carousel-step');
    for (const slide of slides) slide.style.removeProperty('--carousel-shift');
  };

  root.dataset['rotating'] = '';
  root.addEventListener('mouseenter', () => {
    pointerOver = true;
    schedule();
  });
  root.addEventListener('mouseleave', () => {
    pointerOver = false;
    schedule();
  });
  root.addEventListener('focusin', (event) => {
    const from = event.relatedTarget;
    if (handedOver || (from instanceof Node && root.contains(from))) return;
    if (event.target instanceof Element && event.target.matches(':focus-visible')) setStopped(true);
  });
  root.addEventListener('click', (event) => {
    if (handedOver || !(event.target instanceof Element)) return;
    const control = event.target.closest('button');
    if (!control) return;
    if (control === rotation) setStopped(!stopped);
    else if (control.classList.contains('carousel__previous')) show(step - 1);
    else if (control.classList.contains('carousel__next')) show(step + 1);
    else if (dots.includes(control)) show(step + shortestStep(wrapIndex(step, 0, count), dots.indexOf(control), count));
    // The chosen slide gets its full time.
    schedule();
  });
  // Crossing a breakpoint changes the slides in view: the strip lands in its new place at once
  // (carousel.css computes it), with room for the new number in view on both sides.
  window.addEventListener('resize', () => {
    if (handedOver || readPerView() === perView) return;
    instantly(() => {
      perView = readPerView();
      lo = hi = step;
      place(loopStart(step, step, perView, count) ?? start);
    });
    warm();
  });
  root.addEventListener(TAKEOVER_EVENT, (event) => {
    handedOver = true;
    clearTimeout(timer);
    const detail = (event as CustomEvent<TakeoverDetail>).detail;
    detail.index = wrapIndex(step, 0, count);
    detail.stopped = stopped;
    detail.release = release;
    // embla measures the slides by their offsets, and a moved strip would be their offset parent
    // (a transformed element is): until embla has placed them, the strip stands still and each
    // slide carries its share of the strip's move instead, the same picture.
    instantly(() => {
      root.dataset['handover'] = '';
      slides.forEach((slide, i) => slide.style.setProperty('--carousel-shift', String((shifts[i] ?? 0) - step)));
    });
  });
  // Rotation starts once the page has loaded: no picture of it competes with the first view's.
  // The next pictures are fetched only once the carousel is near the screen (the logos are far
  // below the fold at first), and half an interval after the load event at the earliest: the
  // first picture can still be painting just after it, and nothing may share the network with it.
  const begin = () => {
    perView = readPerView();
    setTimeout(() => {
      new IntersectionObserver(
        (entries, observer) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer.disconnect();
          near = true;
          if (!handedOver) warm();
        },
        { rootMargin: '100% 0px' },
      ).observe(root);
    }, interval / 2);
    schedule();
  };
  if (document.readyState === 'complete') begin();
  else window.addEventListener('load', begin, { once: true });
}

for (const root of document.querySelectorAll<HTMLElement>('.carousel[data-interval]')) {
  if (!root.closest('astro-island:not([ssr])')) markFailedPictures(root);
  setUp(root);
}
