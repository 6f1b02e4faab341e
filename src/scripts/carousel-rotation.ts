/**
 * The hero carousel's rotation before its island starts (docs/requirements.md §4: a new picture
 * every 1.5 s), without React: the island (src/components/islands/Carousel.tsx, React and
 * embla) loads only when the visitor reaches for the carousel, so the first view runs no long
 * task. Until then this script moves the server's strip of slides one place every interval,
 * keeps the dots' aria-current, and follows the carousel's rules: rotation holds while the
 * pointer is over it, keyboard focus entering it stops it, and the rotation control, previous,
 * next and the dots work (a tap on a phone reaches them before the island). With
 * prefers-reduced-motion the slides change without animation (carousel.css). When the island
 * starts it takes the slide shown and the stopped state over (TAKEOVER_EVENT) and this stops.
 */
import { TAKEOVER_EVENT, wrapIndex, type TakeoverDetail } from '../lib/carousel';

function setUp(root: HTMLElement): void {
  const interval = Number(root.dataset['interval']);
  const track = root.querySelector<HTMLElement>('.carousel__slides');
  const slides = [...root.querySelectorAll<HTMLElement>('.carousel__slide')];
  const dots = [...root.querySelectorAll<HTMLElement>('.carousel__dot')];
  const rotation = root.querySelector<HTMLElement>('.carousel__rotation');
  const count = slides.length;
  if (!track || !rotation || count < 2 || !(interval > 0)) return;
  // From the markup, not the computed style: no style calculation while the page is loading.
  const rtl = root.closest('[dir]')?.getAttribute('dir') === 'rtl';

  let index = 0;
  let stopped = false;
  let pointerOver = false;
  let handedOver = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** The next slide's picture is fetched before it slides in. */
  const warm = (i: number) => {
    const img = slides[i]?.querySelector('img');
    if (img && img.loading !== 'eager') img.loading = 'eager';
  };
  const show = (next: number) => {
    index = next;
    track.style.transform = index === 0 ? '' : `translate3d(${rtl ? '' : '-'}${index * 100}%, 0, 0)`;
    dots.forEach((dot, i) => (i === index ? dot.setAttribute('aria-current', 'true') : dot.removeAttribute('aria-current')));
    warm(wrapIndex(index, 1, count));
  };
  const schedule = () => {
    clearTimeout(timer);
    if (handedOver || stopped || pointerOver || document.readyState !== 'complete') return;
    timer = setTimeout(() => {
      show(wrapIndex(index, 1, count));
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
    else if (control.classList.contains('carousel__previous')) show(wrapIndex(index, -1, count));
    else if (control.classList.contains('carousel__next')) show(wrapIndex(index, 1, count));
    else if (dots.includes(control)) show(dots.indexOf(control));
    // The chosen slide gets its full time.
    schedule();
  });
  root.addEventListener(TAKEOVER_EVENT, (event) => {
    handedOver = true;
    clearTimeout(timer);
    const detail = (event as CustomEvent<TakeoverDetail>).detail;
    detail.index = index;
    detail.stopped = stopped;
  });
  // Rotation starts once the page has loaded: the second picture never competes with the first.
  const start = () => {
    warm(1);
    schedule();
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

for (const root of document.querySelectorAll<HTMLElement>('.carousel[data-interval]')) setUp(root);
