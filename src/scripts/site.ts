/**
 * The only script on content pages: scroll reveal, the footer's current year and the link to the
 * web manifest. Everything it touches reads fine without it.
 */

/** docs/requirements.md §2.5: a section fades in once 5% of it is visible. */
const REVEAL_THRESHOLD = 0.05;

function setUpReveal(): void {
  if (!('IntersectionObserver' in window)) return;
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        (entry.target as HTMLElement).dataset['reveal'] = 'shown';
        observer.unobserve(entry.target);
      }
    },
    { threshold: REVEAL_THRESHOLD },
  );
  for (const section of document.querySelectorAll<HTMLElement>('[data-reveal]')) {
    // Sections already on screen stay as they are: nothing visible ever blinks.
    const top = section.getBoundingClientRect().top;
    if (top < window.innerHeight) continue;
    section.dataset['reveal'] = 'pending';
    observer.observe(section);
  }
}

/** A visitor in a later year than the build's sees the current one, in the page's digits (the attribute's locale). */
function updateYear(): void {
  const now = new Date().getFullYear();
  for (const el of document.querySelectorAll<HTMLElement>('[data-current-year]')) {
    const format = el.dataset['currentYear'];
    const year = format ? new Intl.NumberFormat(format, { useGrouping: false }).format(now) : String(now);
    if (el.textContent !== year) el.textContent = year;
  }
}

/** How long after the load event the web manifest is linked (then when the browser is idle). */
const MANIFEST_DELAY_MS = 1500;

/**
 * The web manifest, linked once the page has loaded and the browser is idle: linked in the HTML it is fetched on a
 * connection of its own and shares the network with the page's largest text (docs/performance.md).
 */
function linkManifest(): void {
  const link = () => {
    if (document.querySelector('link[rel="manifest"]')) return;
    const manifest = document.createElement('link');
    manifest.rel = 'manifest';
    manifest.href = '/manifest.webmanifest';
    document.head.append(manifest);
  };
  const later = () =>
    setTimeout(
      () => ('requestIdleCallback' in window ? window.requestIdleCallback(link, { timeout: 2000 }) : link()),
      MANIFEST_DELAY_MS,
    );
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

setUpReveal();
updateYear();
linkManifest();
