// @vitest-environment jsdom
/**
 * The phone menu's hand-over from its server markup (a native <details>) to the island: a tap
 * whose pointerdown finds the island still hydrating opens the menu once its click lands, and a
 * press with no click (released elsewhere) hands over all the same.
 */
import { act, createElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test, vi } from 'vitest';
import MobileNav, { type MobileNavProps } from '../../src/components/islands/MobileNav';
import { PRESS_TIMEOUT_MS } from '../../src/lib/after-default-action';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const props: MobileNavProps = {
  entries: [
    { label: 'Home', href: '/' },
    { label: 'Services', items: [{ label: 'Trainings', href: '/services/trainings' }] },
  ],
  currentPath: '/',
  labels: { nav: 'Main', submenu: '{label} submenu', menu: 'Menu' },
};
let root: Root | undefined;

// jsdom has no media queries: a phone, which cannot hover.
window.matchMedia = (query: string) => ({ matches: false, media: query }) as MediaQueryList;

afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
  document.body.replaceChildren();
  vi.useRealTimers();
});

/** The server's markup in the page, then a press on "Menu" during which the island hydrates. */
async function hydrateDuringPress(): Promise<HTMLElement> {
  const container = document.createElement('div');
  container.innerHTML = renderToString(createElement(MobileNav, props));
  document.body.append(container);
  const summary = container.querySelector('summary')!;
  const during = () => {
    act(() => {
      root = hydrateRoot(container, createElement(MobileNav, props));
    });
  };
  window.addEventListener('pointerdown', during, { once: true });
  summary.dispatchEvent(new Event('pointerdown', { bubbles: true }));
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  return container;
}

test('a tap that finds the menu hydrating opens it once its click lands', async () => {
  const container = await hydrateDuringPress();
  // The press is not over: the markup under the finger is still the server's.
  expect(container.querySelector('details')).not.toBeNull();
  const summary = container.querySelector('summary')!;
  summary.dispatchEvent(new Event('pointerup', { bubbles: true }));
  // The click's default action: the <summary> opens its <details>.
  await act(async () => {
    summary.click();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  const button = container.querySelector('button.mobile-nav__toggle');
  expect(button?.getAttribute('aria-expanded')).toBe('true');
  expect(container.querySelector<HTMLElement>('.mobile-nav__panel')!.hidden).toBe(false);
});

test('a press released elsewhere (no click) hands the shut menu over after the press timeout', async () => {
  const container = await hydrateDuringPress();
  vi.useFakeTimers();
  window.dispatchEvent(new Event('pointerup'));
  expect(container.querySelector('details')).not.toBeNull();
  await act(async () => {
    await vi.advanceTimersByTimeAsync(PRESS_TIMEOUT_MS + 10);
  });
  vi.useRealTimers();
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
  expect(container.querySelector('button.mobile-nav__toggle')?.getAttribute('aria-expanded')).toBe('false');
});
