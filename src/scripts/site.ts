/**
 * The only script on content pages: scroll reveal and the footer's current year.
 * Everything it touches reads fine without it.
 */

/** docs/requirements.md §2.5: a section fades in once 5% of it is visible. */
export const REVEAL_THRESHOLD = 0.05;

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

/**
 * The build writes its own year; a visitor in a later year sees the current one, written as the
 * page writes numbers (the attribute names the locale when it is not English: "ar-SA-u-nu-latn", Western digits).
 */
function updateYear(): void {
  const now = new Date().getFullYear();
  for (const el of document.querySelectorAll<HTMLElement>('[data-current-year]')) {
    const format = el.dataset['currentYear'];
    const year = format ? new Intl.NumberFormat(format, { useGrouping: false }).format(now) : String(now);
    if (el.textContent !== year) el.textContent = year;
  }
}

setUpReveal();
updateYear();
