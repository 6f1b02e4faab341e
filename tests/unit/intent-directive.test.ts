// @vitest-environment jsdom
/**
 * The `client:intent` directive (src/integrations/intent-directive.client.ts): nothing is
 * loaded until the visitor hovers, focuses or presses the island, and a press that wakes it
 * finishes (its click done) before the island starts.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import intentDirective from '../../src/integrations/intent-directive.client';
import { TYPING_PAUSE_MS } from '../../src/lib/typing-pause';

function setUp(value: unknown = '') {
  const island = document.createElement('div');
  const inner = document.createElement('button');
  island.append(inner);
  document.body.append(island);
  const hydrate = vi.fn(async () => {});
  const load = vi.fn(async () => hydrate);
  intentDirective(load, { name: 'Menu', value: value as string }, island);
  return { island, inner, load, hydrate };
}

const pointer = (type: string, pointerType = 'mouse') => {
  const event = new Event(type, { bubbles: true });
  Object.assign(event, { pointerType });
  return event;
};
/** Lets pending promises and one round of tasks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  document.body.replaceChildren();
  window.localStorage.clear();
});

describe('client:intent', () => {
  test('loads nothing before the visitor reaches for the island', async () => {
    const { load } = setUp();
    document.body.dispatchEvent(pointer('pointerover'));
    window.dispatchEvent(new Event('scroll'));
    await settle();
    expect(load).not.toHaveBeenCalled();
  });

  for (const type of ['pointerover', 'focusin', 'pointerdown', 'touchstart']) {
    test(`${type} inside the island loads and starts it, once`, async () => {
      const { inner, load, hydrate } = setUp();
      inner.dispatchEvent(pointer(type));
      inner.dispatchEvent(pointer(type));
      if (type === 'pointerdown') inner.dispatchEvent(pointer('click'));
      await settle();
      expect(load).toHaveBeenCalledTimes(1);
      expect(hydrate).toHaveBeenCalledTimes(1);
    });
  }

  test('a press that wakes the island is finished (its click dispatched) before the island starts', async () => {
    const { inner, load, hydrate } = setUp();
    inner.dispatchEvent(pointer('pointerover', 'touch'));
    inner.dispatchEvent(pointer('pointerdown', 'touch'));
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrate).not.toHaveBeenCalled();
    inner.dispatchEvent(pointer('pointerup', 'touch'));
    inner.dispatchEvent(new Event('click', { bubbles: true }));
    expect(hydrate).not.toHaveBeenCalled(); // not during the click: its default action comes first
    await settle();
    expect(hydrate).toHaveBeenCalledTimes(1);
  });

  test('a press released elsewhere (no click) starts the island after a short wait', async () => {
    vi.useFakeTimers();
    try {
      const { inner, hydrate } = setUp();
      inner.dispatchEvent(pointer('pointerdown', 'touch'));
      await vi.advanceTimersByTimeAsync(0);
      inner.dispatchEvent(pointer('pointerup', 'touch'));
      await vi.advanceTimersByTimeAsync(100);
      expect(hydrate).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1000);
      expect(hydrate).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  test('{ resume: key } with nothing saved under the key: still waits for the visitor', async () => {
    const { load } = setUp({ resume: 'draft' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(load).not.toHaveBeenCalled();
  });

  test('{ resume: key } with a draft saved under the key: starts once the browser is idle, untouched', async () => {
    window.localStorage.setItem('draft', '{"name":"Aisha"}');
    const { load, hydrate } = setUp({ resume: 'draft' });
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1), { timeout: 2000 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  test('{ afterLoad: true }: nothing while the page is loading; once it has loaded and the browser is idle, it starts by itself, once', async () => {
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    try {
      const { inner, load, hydrate } = setUp({ afterLoad: true });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(load).not.toHaveBeenCalled();
      readyState.mockReturnValue('complete');
      window.dispatchEvent(new Event('load'));
      await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1), { timeout: 2000 });
      // A visitor reaching for it afterwards starts nothing twice.
      inner.dispatchEvent(pointer('pointerover'));
      await settle();
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      readyState.mockRestore();
    }
  });

  test('{ afterLoad: true }: the visitor reaching for it before the page has loaded starts it at once', async () => {
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    try {
      const { inner, load, hydrate } = setUp({ afterLoad: true });
      inner.dispatchEvent(pointer('focusin'));
      await settle();
      expect(load).toHaveBeenCalledTimes(1);
      expect(hydrate).toHaveBeenCalledTimes(1);
      window.dispatchEvent(new Event('load'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      readyState.mockRestore();
    }
  });

  test('a file chosen or dropped on a file input (its change event alone) starts the island', async () => {
    const { island, load, hydrate } = setUp();
    const input = document.createElement('input');
    input.type = 'file';
    island.append(input);
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrate).toHaveBeenCalledTimes(1);
  });

  /** An island holding a form whose island marks it `data-hydrated` when `hydrate` runs (or never). */
  function formIsland(load: () => Promise<() => Promise<void>>) {
    const island = document.createElement('div');
    const form = document.createElement('form');
    const field = document.createElement('input');
    field.required = true;
    const send = document.createElement('button');
    send.type = 'submit';
    form.append(field, send);
    island.append(form);
    document.body.append(island);
    const submits: { noValidate: boolean; submitter: HTMLElement | null }[] = [];
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submits.push({ noValidate: form.noValidate, submitter: (event as SubmitEvent).submitter });
    });
    const requestSubmit = vi.spyOn(form, 'requestSubmit');
    intentDirective(load, { name: 'Form', value: '' }, island);
    return { form, send, submits, requestSubmit };
  }

  test("a press on Send before the form's island has started is held, then given to the island once it marks the form", async () => {
    let markHydrated = () => {};
    const hydrate = vi.fn(async () => {
      markHydrated();
    });
    const { form, send, requestSubmit } = formIsland(async () => hydrate);
    markHydrated = () => {
      form.noValidate = true;
      form.setAttribute('data-hydrated', '');
    };
    send.dispatchEvent(pointer('pointerdown'));
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    send.dispatchEvent(click);
    // Not the browser's: no interactive validation, no post.
    expect(click.defaultPrevented).toBe(true);
    // A second press while the island loads is held too, and given once.
    const again = new MouseEvent('click', { bubbles: true, cancelable: true });
    send.dispatchEvent(again);
    expect(again.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(requestSubmit).toHaveBeenCalledTimes(1));
    expect(requestSubmit).toHaveBeenCalledWith(send);
    // Once the island runs, its presses are its own.
    const later = new MouseEvent('click', { bubbles: true, cancelable: true });
    send.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
  });

  test("when the island's script fails to load, the held press is the browser's own after all, and so are the next", async () => {
    const { send, requestSubmit } = formIsland(() => Promise.reject(new Error('offline')));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      send.dispatchEvent(pointer('pointerdown'));
      send.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
      await vi.waitFor(() => expect(requestSubmit).toHaveBeenCalledTimes(1));
      const next = new MouseEvent('click', { bubbles: true, cancelable: true });
      send.dispatchEvent(next);
      expect(next.defaultPrevented).toBe(false);
    } finally {
      await settle();
      process.off('unhandledRejection', unhandled);
    }
  });

  test('keys typed into a field hold the start until the visitor pauses; the text is theirs meanwhile', async () => {
    const { island, load, hydrate } = setUp();
    const field = document.createElement('input');
    island.append(field);
    field.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    const started = Date.now();
    // A key every 150 ms for longer than the pause: the island waits all along.
    while (Date.now() - started < TYPING_PAUSE_MS * 1.5) {
      field.value += 'a';
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(load).not.toHaveBeenCalled();
    }
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1), { timeout: TYPING_PAUSE_MS * 2 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  for (const [what, interrupt] of [
    ['Enter', (field: HTMLElement) => field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))],
    ['a press', (field: HTMLElement) => field.dispatchEvent(pointer('pointerdown'))],
  ] as const) {
    test(`${what} in the middle of typing starts the island at once`, async () => {
      const { island, hydrate } = setUp();
      const field = document.createElement('input');
      island.append(field);
      field.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      field.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
      await settle();
      expect(hydrate).not.toHaveBeenCalled();
      interrupt(field);
      field.dispatchEvent(pointer('pointerup'));
      field.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1), { timeout: TYPING_PAUSE_MS / 2 });
    });
  }

  test("the island's modules and everything they import, statically or later, are fetched before it runs", async () => {
    const files: Record<string, string> = {
      '/_astro/Form.js': 'import{a as e}from"./react.js";import{b}from"./forms.js";export default 1;',
      '/_astro/forms.js': 'import{a}from"./react.js";const w=()=>import(`./widget.js`);export{w as b};',
      '/_astro/react.js': 'export const a=1;',
      '/_astro/widget.js': 'export{};',
      '/_astro/client.js': 'import{a}from"./react.js";export default 2;',
    };
    const fetched: string[] = [];
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(String(input)).pathname;
      fetched.push(path);
      return new Response(files[path] ?? '', { status: path in files ? 200 : 404 });
    });
    try {
      const island = document.createElement('div');
      island.setAttribute('component-url', '/_astro/Form.js');
      island.setAttribute('renderer-url', '/_astro/client.js');
      document.body.append(island);
      let fetchedWhenLoaded: string[] = [];
      const hydrate = vi.fn(async () => {});
      const load = vi.fn(async () => {
        fetchedWhenLoaded = [...fetched];
        return hydrate;
      });
      intentDirective(load, { name: 'Form', value: '' }, island);
      island.dispatchEvent(pointer('pointerover'));
      await vi.waitFor(() => expect(hydrate).toHaveBeenCalledTimes(1));
      expect(fetchedWhenLoaded.sort()).toEqual(Object.keys(files).sort());
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
