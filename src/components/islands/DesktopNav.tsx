/**
 * The header menu at 1150 px and wider (docs/requirements.md §3.1, §12): dropdowns with nested flyouts, after the
 * WAI-ARIA APG disclosure navigation pattern. Hovering opens a submenu, which closes CLOSE_DELAY_MS after the pointer
 * leaves; a pointer on a slant towards a flyout crosses rows whose lists stay shut until it rests (AIM_DELAY_MS). A
 * click, tap, Enter or Space toggles and pins a submenu; a press outside, Escape or focus leaving closes it. A flyout
 * that would run off the screen opens towards the other side.
 */
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, type FocusEvent, type PointerEvent } from 'react';
import { AIM_DELAY_MS, CLOSE_DELAY_MS, CLOSED, closesOnLeave, isOpen, menuReducer, pathTo, toMenuNodes } from '../../lib/menu';
import { MenuList, panelId, useDismiss, useEnhancement, type DisclosureMenu, type MenuProps } from './menu-common';

const PREFIX = 'dnav';

/** How far `panel` reaches past the sides of the viewport, in pixels. */
function overflow(panel: HTMLElement): number {
  const { left, right } = panel.getBoundingClientRect();
  return Math.max(0, -left) + Math.max(0, right - document.documentElement.clientWidth);
}

/** Opens each submenu on its parent's side (the inline direction first), or the other when that runs off the screen less. */
function placePanels(open: readonly string[]): void {
  for (const key of open) {
    const panel = document.getElementById(panelId(PREFIX, key));
    if (!panel) continue;
    const parentEnd = panel.parentElement?.closest('.nav-panel')?.getAttribute('data-align') === 'end';
    // Not React state: a layout measurement, applied before the browser paints.
    const place = (end: boolean) => (end ? panel.setAttribute('data-align', 'end') : panel.removeAttribute('data-align'));
    place(parentEnd);
    const preferred = overflow(panel);
    if (preferred === 0) continue;
    place(!parentEnd);
    if (overflow(panel) >= preferred) place(parentEnd);
  }
}

export default function DesktopNav({ entries, currentPath, labels }: MenuProps) {
  const nodes = useMemo(() => toMenuNodes(entries), [entries]);
  const rootRef = useRef<HTMLElement>(null);
  const [state, dispatch] = useReducer(menuReducer, CLOSED);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancelClose = () => clearTimeout(closeTimer.current);
  /** A sibling's flyout waiting for the pointer to rest on its item (AIM_DELAY_MS). */
  const aimTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** What waits for the pointer to rest (an item's flyout to open or to close); moving restarts it. */
  const resting = useRef<(() => void) | undefined>(undefined);
  const cancelAim = () => {
    clearTimeout(aimTimer.current);
    resting.current = undefined;
  };
  /** Runs `action` once the pointer has rested AIM_DELAY_MS. */
  const afterRest = (action: () => void) => {
    resting.current = action;
    aimTimer.current = setTimeout(action, AIM_DELAY_MS);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse' || resting.current === undefined) return;
    clearTimeout(aimTimer.current);
    aimTimer.current = setTimeout(resting.current, AIM_DELAY_MS);
  };

  const enhanced = useEnhancement(rootRef, ({ openChain, hoveredTopKey }) => {
    if (openChain.length > 0) dispatch({ type: 'restore', open: openChain, pinned: openChain.length });
    else if (hoveredTopKey !== null) dispatch({ type: 'hover', key: hoveredTopKey });
  });

  useLayoutEffect(() => placePanels(state.open), [state.open]);

  // While anything is open: a press outside closes everything. Escape in the menu closes the
  // innermost submenu and returns focus to its button; with focus elsewhere it closes everything
  // (content shown on hover must be dismissible without moving the pointer, WCAG 1.4.13).
  useDismiss(
    rootRef,
    state.open.length > 0,
    () => {
      cancelClose();
      dispatch({ type: 'closeAll' });
    },
    (event, focusInside) => {
      const innermost = state.open.at(-1);
      if (!focusInside || innermost === undefined) return dispatch({ type: 'closeAll' });
      event.preventDefault();
      cancelClose();
      dispatch({ type: 'closeInnermost' });
      rootRef.current?.querySelector<HTMLElement>(`button[aria-controls="${panelId(PREFIX, innermost)}"]`)?.focus();
    },
  );

  useEffect(
    () => () => {
      cancelClose();
      cancelAim();
    },
    [],
  );

  if (!enhanced) {
    return (
      <nav className="desktop-nav" aria-label={labels.nav} ref={rootRef}>
        <MenuList nodes={nodes} depth={0} name="desktop-nav" currentPath={currentPath} />
      </nav>
    );
  }

  const menu: DisclosureMenu = {
    prefix: PREFIX,
    labels,
    isOpen: (key) => isOpen(state, key),
    toggle: (event, key) => {
      cancelClose();
      // A click from Enter or Space has no pointer position and a detail of 0.
      dispatch({ type: 'toggle', key, source: event.detail === 0 ? 'keyboard' : 'pointer' });
    },
    groupHandlers: (key) => ({
      onPointerEnter: (event: PointerEvent) => {
        if (event.pointerType !== 'mouse') return; // a tap opens by its click, never by "hover"
        cancelClose();
        cancelAim();
        // Below the top level, with a sibling's flyout open: the pointer may only be passing
        // over this item on its way to that flyout.
        const depth = pathTo(key).length;
        const sibling = state.open[depth - 1];
        if (depth > 1 && sibling !== undefined && sibling !== key) afterRest(() => dispatch({ type: 'hover', key }));
        else dispatch({ type: 'hover', key });
      },
      onPointerLeave: (event: PointerEvent) => {
        if (event.pointerType !== 'mouse') return;
        cancelAim();
        if (!closesOnLeave(state, key)) return;
        cancelClose();
        const collapse = () => dispatch({ type: 'collapse', key });
        // Onto another row of the same list: the pointer may be on its way to this item's flyout.
        const to = event.relatedTarget;
        const list = event.currentTarget.parentElement;
        if (pathTo(key).length > 1 && to instanceof Node && list?.contains(to)) afterRest(collapse);
        else closeTimer.current = setTimeout(collapse, CLOSE_DELAY_MS);
      },
      onBlur: (event: FocusEvent<HTMLLIElement>) => {
        // Focus moving to nowhere (a click on empty space) is handled by the press outside.
        const next = event.relatedTarget;
        if (next === null || event.currentTarget.contains(next)) return;
        dispatch({ type: 'collapse', key });
      },
    }),
  };

  return (
    <nav className="desktop-nav" aria-label={labels.nav} ref={rootRef} data-enhanced="" onPointerMove={onPointerMove}>
      <MenuList nodes={nodes} depth={0} name="desktop-nav" currentPath={currentPath} menu={menu} />
    </nav>
  );
}
