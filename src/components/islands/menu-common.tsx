/**
 * What the desktop and mobile menu islands share. Until an island starts (for ever without JavaScript) the server's
 * baseline shows: links, and groups as native `<details>`. Once started, it adopts what the visitor already opened or
 * focused there and renders the WAI-ARIA disclosure pattern: a `<button aria-expanded aria-controls>` per group.
 */
import {
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  type DOMAttributes,
  type MouseEvent,
  type RefObject,
} from 'react';
import { fillTemplate } from '../../i18n/template';
import { leadsTo, type MenuNode, type ResolvedNavEntry } from '../../lib/menu';
import { afterDefaultAction, afterPress } from '../../lib/after-default-action';

export interface MenuLabels {
  /** The `<nav>` landmark's name. */
  readonly nav: string;
  /** The name of a page's submenu button, with `{label}` for the page. */
  readonly submenu: string;
}

export interface MenuProps<L extends MenuLabels = MenuLabels> {
  readonly entries: readonly ResolvedNavEntry[];
  /** The path of the page being shown, for `aria-current="page"`. */
  readonly currentPath: string;
  readonly labels: L;
}

/** The language switch: the same page in the other language, its name written in that language. */
export interface LanguageLink {
  readonly href: string;
  /** The language's own name ("العربية", "English"). */
  readonly label: string;
  /** Its BCP 47 tag: the link's `lang` (how to read the name) and `hreflang` (the language of the page it leads to). */
  readonly lang: string;
}

export function panelId(prefix: string, key: string): string {
  return `${prefix}-${key.replaceAll('/', '--')}`;
}

/** Marks the buttons and `<details>` of a menu (links are known by their `href`), so what is open and focused survives the hand-over. */
const KEY_ATTRIBUTE = 'data-nav-key';
const toggleKey = (key: string): string => `${key}#toggle`;

function MenuLink({ node, currentPath }: { node: MenuNode; currentPath: string }) {
  return (
    <a href={node.href} lang={node.lang} aria-current={node.href === currentPath ? 'page' : undefined}>
      {node.label}
    </a>
  );
}

/**
 * A group's name with its last word in a span of its own, on which the chevron hangs, so it never drops alone onto a
 * line. A top-level name of three words or more is cut into two lines of about equal length, which only the desktop
 * menu stacks (navigation.css): each label is then no wider than its longer line, and the gaps stay even.
 */
function ToggleLabel({ label, depth, lang }: { label: string; depth: number; lang?: string | undefined }) {
  const words = label.split(' ');
  const last = <span className="nav-toggle__tail">{words.pop()}</span>;
  if (depth > 0 || words.length < 2) {
    return (
      <span className="nav-toggle__text" lang={lang}>
        {words.length > 0 ? `${words.join(' ')} ` : ''}
        {last}
      </span>
    );
  }
  // The first line takes the first `at` words; the cut is where the longer line is shortest.
  const firstLine = (at: number) => words.slice(0, at).join(' ');
  const longer = (at: number) => Math.max(firstLine(at).length, label.length - firstLine(at).length - 1);
  let cut = 1;
  for (let at = 2; at <= words.length; at++) if (longer(at) < longer(cut)) cut = at;
  const rest = words.slice(cut);
  return (
    <span className="nav-toggle__text" lang={lang}>
      <span className="nav-toggle__line">{firstLine(cut)}</span>{' '}
      <span className="nav-toggle__line">
        {rest.length > 0 ? `${rest.join(' ')} ` : ''}
        {last}
      </span>
    </span>
  );
}

/**
 * A menu's list. Without `menu`, the baseline: links, groups as `<details>` (exclusive at the top level, by `name`), a
 * page's own submenu listed under its link. With `menu`, WAI-ARIA APG disclosure navigation: each group a button followed
 * by its list (hidden while closed); a page with a submenu is its link plus a small button.
 */
export function MenuList({
  nodes,
  depth,
  name,
  currentPath,
  menu,
  id,
  hidden = false,
}: {
  nodes: readonly MenuNode[];
  depth: number;
  /** Top-level `<details>` with one name form an exclusive accordion. */
  name: string;
  currentPath: string;
  menu?: DisclosureMenu | undefined;
  id?: string;
  hidden?: boolean;
}) {
  const classes = ['nav-list', `nav-list--depth-${depth}`];
  if (id !== undefined)
    classes.push('nav-panel', nodes.every((node) => node.items === undefined) ? 'nav-panel--leaf' : 'nav-panel--branch');
  const item = (node: MenuNode) => (
    <li key={node.key} className="nav-item">
      <MenuLink node={node} currentPath={currentPath} />
    </li>
  );
  const group = (node: MenuNode, items: readonly MenuNode[]) => {
    if (menu)
      return (
        <DisclosureGroup
          key={node.key}
          node={node}
          items={items}
          depth={depth}
          name={name}
          currentPath={currentPath}
          menu={menu}
        />
      );
    if (node.href !== undefined) {
      return (
        <li key={node.key} className="nav-item">
          <MenuLink node={node} currentPath={currentPath} />
          <ul className="nav-list nav-list--inline">{items.map(item)}</ul>
        </li>
      );
    }
    return (
      <li key={node.key} className="nav-group">
        <details name={depth === 0 ? name : undefined} data-nav-key={node.key}>
          <summary className="nav-toggle" data-nav-key={node.key}>
            <ToggleLabel label={node.label} depth={depth} lang={node.lang} />
          </summary>
          <MenuList nodes={items} depth={depth + 1} name={name} currentPath={currentPath} />
        </details>
      </li>
    );
  };
  return (
    <ul id={id} hidden={hidden} className={classes.join(' ')}>
      {nodes.map((node) => (node.items ? group(node, node.items) : item(node)))}
    </ul>
  );
}

/** How a menu drives its disclosure markup. */
export interface DisclosureMenu {
  /** Prefix of the submenus' DOM ids, one per menu on the page. */
  readonly prefix: string;
  readonly labels: MenuLabels;
  isOpen(key: string): boolean;
  toggle(event: MouseEvent<HTMLButtonElement>, key: string): void;
  /** Extra event handlers for a group's `<li>` (the desktop menu's hover and focus rules). */
  groupHandlers?(key: string): DOMAttributes<HTMLLIElement>;
}

function DisclosureGroup({
  node,
  items,
  depth,
  name,
  currentPath,
  menu,
}: {
  node: MenuNode;
  items: readonly MenuNode[];
  depth: number;
  name: string;
  currentPath: string;
  menu: DisclosureMenu;
}) {
  const open = menu.isOpen(node.key);
  const id = panelId(menu.prefix, node.key);
  const button = {
    type: 'button',
    'aria-expanded': open,
    'aria-controls': id,
    onClick: (event: MouseEvent<HTMLButtonElement>) => menu.toggle(event, node.key),
  } as const;
  return (
    <li className="nav-group" data-open={open ? '' : undefined} {...menu.groupHandlers?.(node.key)}>
      {node.href === undefined ? (
        <button
          {...button}
          className="nav-toggle"
          data-nav-key={node.key}
          data-current={leadsTo(node, currentPath) ? '' : undefined}
        >
          <ToggleLabel label={node.label} depth={depth} lang={node.lang} />
        </button>
      ) : (
        <div className="nav-row">
          <MenuLink node={node} currentPath={currentPath} />
          <button
            {...button}
            className="nav-toggle nav-toggle--icon"
            aria-label={fillTemplate(menu.labels.submenu, { label: node.label })}
            data-nav-key={toggleKey(node.key)}
          />
        </div>
      )}
      <MenuList nodes={items} depth={depth + 1} name={name} currentPath={currentPath} menu={menu} id={id} hidden={!open} />
    </li>
  );
}

/** What the visitor did with the baseline before the island started. */
interface BaselineSnapshot {
  /** Keys of the open `<details>`, outermost first, each inside the one before. */
  readonly openChain: readonly string[];
  /** Keys of every open `<details>`. */
  readonly openKeys: readonly string[];
  /** The top-level group under a mouse pointer, if any. */
  readonly hoveredTopKey: string | null;
}

function readSnapshot(root: HTMLElement): BaselineSnapshot {
  const openKeys: string[] = [];
  const openChain: string[] = [];
  for (const details of root.querySelectorAll<HTMLDetailsElement>('details[open][data-nav-key]')) {
    const key = details.getAttribute(KEY_ATTRIBUTE) ?? '';
    openKeys.push(key);
    const parentKey = details.parentElement?.closest('details[data-nav-key]')?.getAttribute(KEY_ATTRIBUTE) ?? null;
    if (parentKey === (openChain.at(-1) ?? null)) openChain.push(key);
  }
  let hoveredTopKey: string | null = null;
  if (window.matchMedia('(hover: hover)').matches) {
    const hovered = root.querySelector('.nav-list--depth-0 > .nav-group:hover > details');
    hoveredTopKey = hovered?.getAttribute(KEY_ATTRIBUTE) ?? null;
  }
  return { openChain, openKeys, hoveredTopKey };
}

/** How to find the menu item that has focus again once the markup has changed. */
function focusSelector(root: HTMLElement): string | null {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !root.contains(active)) return null;
  const key = active.getAttribute(KEY_ATTRIBUTE);
  if (key !== null) return `[${KEY_ATTRIBUTE}="${CSS.escape(key)}"]`;
  const href = active.getAttribute('href');
  return href === null ? null : `a[href="${CSS.escape(href)}"]`;
}

/**
 * The hand-over from the baseline: on the first render after hydration, let `onEnhance` adopt what is open, switch to
 * the interactive markup and put focus back on the same item. Focus is followed until the switch, so a Tab pressed
 * while the island starts is kept.
 */
export function useEnhancement(rootRef: RefObject<HTMLElement | null>, onEnhance: (snapshot: BaselineSnapshot) => void): boolean {
  const [enhanced, setEnhanced] = useState(false);
  /** A selector for the item focused last in the menu before the hand-over. */
  const focusTarget = useRef<string | null>(null);
  const adopt = useEffectEvent(onEnhance);

  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const follow = () => {
      focusTarget.current = focusSelector(root);
    };
    root.addEventListener('focusin', follow);
    const handOver = () => {
      follow();
      adopt(readSnapshot(root));
      setEnhanced(true);
    };
    // React finishes a hydration at once when a press reaches the island while it is still
    // hydrating, inside that press's dispatch: before its default action (a <summary> opening
    // its <details>). Read the markup once that action is done, or the tap is lost; inside a
    // pointerdown, once its click is done, or the click lands on markup already replaced.
    const during = typeof window === 'undefined' ? undefined : window.event?.type;
    if (during === 'pointerdown' || during === 'mousedown' || during === 'touchstart') afterPress(handOver);
    else if (during !== undefined) afterDefaultAction(handOver);
    else handOver();
    return () => {
      root.removeEventListener('focusin', follow);
    };
  }, [rootRef]);

  useLayoutEffect(() => {
    const root = rootRef.current;
    if (!enhanced || !root || focusTarget.current === null) return;
    const target = root.querySelector<HTMLElement>(focusTarget.current);
    focusTarget.current = null;
    // Back on its item when focus is still in the menu, or was lost with the baseline's markup;
    // not when the visitor has moved on out of the menu.
    const active = document.activeElement;
    if (active !== null && active !== document.body && !root.contains(active)) return;
    target?.focus();
  }, [enhanced, rootRef]);

  return enhanced;
}

/** While `active`: a press outside the menu calls `onOutsidePress`; Escape calls `onEscape` with whether focus is inside. */
export function useDismiss(
  rootRef: RefObject<HTMLElement | null>,
  active: boolean,
  onOutsidePress: () => void,
  onEscape: (event: KeyboardEvent, focusInside: boolean) => void,
): void {
  const outside = useEffectEvent(onOutsidePress);
  const escape = useEffectEvent(onEscape);
  useEffect(() => {
    if (!active) return;
    const inside = (target: EventTarget | null) => target instanceof Node && (rootRef.current?.contains(target) ?? false);
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target)) outside();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') escape(event, inside(document.activeElement));
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [active, rootRef]);
}
