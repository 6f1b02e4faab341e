/**
 * The header menu as the navigation islands see it: the tree with a stable key on every node, and the desktop dropdowns'
 * state as a pure reducer (docs/requirements.md §3.1). It ships to the browser, so it imports no site data.
 */

/** A navigation entry with, under each page that lists ISO standards, links to them. */
interface ResolvedNavLink {
  readonly label: string;
  readonly href: string;
  /** The menu's key for this entry, where its label cannot make one (an Arabic label): the English label's. */
  readonly key?: string;
  /** "en" on a translated page when the entry is the English one standing in for its translation. */
  readonly lang?: string;
  readonly children?: readonly ResolvedNavLink[];
}
interface ResolvedNavGroup {
  readonly label: string;
  readonly key?: string;
  readonly lang?: string;
  readonly items: readonly ResolvedNavEntry[];
}
export type ResolvedNavEntry = ResolvedNavLink | ResolvedNavGroup;

/** docs/requirements.md §12: a dropdown closes this long after the pointer leaves it. */
export const CLOSE_DELAY_MS = 150;

/**
 * How long the pointer rests on an item inside a dropdown before its flyout replaces a sibling's: a pointer on a slant
 * towards a flyout crosses the rows below its item, and the three ISO trainings' lists look alike.
 */
export const AIM_DELAY_MS = 300;

/** One entry of the menu: `items` makes it expandable; with `href` too, a page with a submenu of its own (an ISO training). */
export interface MenuNode {
  /** Unique in the tree: the slugs of the labels from the top, joined by "/" (of the English labels on a translated page). */
  readonly key: string;
  readonly label: string;
  /** "en" where a translated menu shows the English entry until it is translated. */
  readonly lang?: string;
  readonly href?: string;
  readonly items?: readonly MenuNode[];
}

export function slugify(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The navigation tree with keys; throws when two siblings would share a key. */
export function toMenuNodes(entries: readonly ResolvedNavEntry[], parentKey = ''): MenuNode[] {
  const seen = new Set<string>();
  return entries.map((entry) => {
    // A translated entry brings its English twin's key: slugify() keeps Latin letters only.
    const own = entry.key ?? slugify(entry.label);
    const key = parentKey ? `${parentKey}/${own}` : own;
    if (seen.has(key)) throw new Error(`Two menu entries under "${parentKey || 'the top'}" have the key "${key}"`);
    seen.add(key);
    const lang = entry.lang ? { lang: entry.lang } : {};
    if ('items' in entry) return { key, label: entry.label, ...lang, items: toMenuNodes(entry.items, key) };
    if (entry.children?.length)
      return { key, label: entry.label, ...lang, href: entry.href, items: toMenuNodes(entry.children, key) };
    return { key, label: entry.label, ...lang, href: entry.href };
  });
}

/** The same tree with one destination replaced (the mobile menu's About link is /Aboutus, docs/requirements.md §3.2). */
export function replaceHref(entries: readonly ResolvedNavEntry[], from: string, to: string): ResolvedNavEntry[] {
  return entries.map((entry) => {
    if ('items' in entry) return { ...entry, items: replaceHref(entry.items, from, to) };
    return entry.href === from ? { ...entry, href: to } : entry;
  });
}

/** True when `node` is the current page or leads to it (its submenu holds the current page). */
export function leadsTo(node: MenuNode, currentPath: string): boolean {
  return node.href === currentPath || (node.items ?? []).some((child) => leadsTo(child, currentPath));
}

/** The keys from the top down to `key`: ["trainings", "trainings/iso-trainings"]. */
export function pathTo(key: string): string[] {
  const parts = key.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

// ---- Desktop dropdown state -------------------------------------------------------------

/**
 * `open`: the chain of open submenus from the top, one per level. The first `pinned` were opened by a click, a tap or the
 * keyboard and stay open when the pointer leaves; the rest were opened by hovering and close CLOSE_DELAY_MS after it leaves.
 */
export interface MenuState {
  readonly open: readonly string[];
  readonly pinned: number;
}

export type MenuAction =
  /** The mouse entered a submenu's item (its button or the submenu itself). */
  | { readonly type: 'hover'; readonly key: string }
  /** The submenu's button was clicked, tapped, or pressed with Enter or Space. */
  | { readonly type: 'toggle'; readonly key: string; readonly source: 'pointer' | 'keyboard' }
  | { readonly type: 'collapse'; readonly key: string }
  /** Close the innermost open submenu (Escape). */
  | { readonly type: 'closeInnermost' }
  | { readonly type: 'closeAll' }
  /** Take over what the visitor opened before the island started (a native `<details>`). */
  | { readonly type: 'restore'; readonly open: readonly string[]; readonly pinned: number };

export const CLOSED: MenuState = { open: [], pinned: 0 };

export function isOpen(state: MenuState, key: string): boolean {
  return state.open.includes(key);
}

function closeTo(state: MenuState, depth: number): MenuState {
  if (depth >= state.open.length) return state;
  if (depth <= 0) return CLOSED;
  return { open: state.open.slice(0, depth), pinned: Math.min(state.pinned, depth) };
}

/** How many leading keys two chains share. */
function shared(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n += 1;
  return n;
}

export function menuReducer(state: MenuState, action: MenuAction): MenuState {
  switch (action.type) {
    case 'hover': {
      // Already open (the pointer came back, or moved up a level): keep everything as it is,
      // so moving between a button, its submenu and deeper levels never closes anything.
      if (isOpen(state, action.key)) return state;
      const chain = pathTo(action.key);
      const common = shared(state.open, chain);
      return { open: chain, pinned: Math.min(state.pinned, common) };
    }
    case 'toggle': {
      const chain = pathTo(action.key);
      if (isOpen(state, action.key)) {
        // A click on a submenu the mouse has just opened by hovering keeps it open (and pins it):
        // a visitor who hovers and then clicks means "open", not "close".
        if (action.source === 'pointer' && state.pinned < chain.length) return { open: state.open, pinned: chain.length };
        return closeTo(state, chain.length - 1);
      }
      return { open: chain, pinned: chain.length };
    }
    case 'collapse': {
      const index = state.open.indexOf(action.key);
      return index < 0 ? state : closeTo(state, index);
    }
    case 'closeInnermost':
      return closeTo(state, state.open.length - 1);
    case 'closeAll':
      return state.open.length === 0 ? state : CLOSED;
    case 'restore':
      return { open: [...action.open], pinned: Math.min(action.pinned, action.open.length) };
  }
}

/** A hover-opened submenu closes when the pointer leaves it; a pinned one stays. */
export function closesOnLeave(state: MenuState, key: string): boolean {
  const index = state.open.indexOf(key);
  return index >= 0 && index >= state.pinned;
}
