/**
 * The header menu below 1150 px (docs/requirements.md §3.2, §12): a menu button that opens a panel of expandable groups.
 * Choosing a destination closes it; so do Escape (focus back on the button), focus leaving and a press outside. The page
 * behind does not scroll while it is open (navigation.css, which covers the no-JavaScript `<details>` too).
 */
import { useMemo, useRef, useState, type FocusEvent, type MouseEvent } from 'react';
import { toMenuNodes } from '../../lib/menu';
import {
  MenuList,
  useDismiss,
  useEnhancement,
  type DisclosureMenu,
  type LanguageLink,
  type MenuLabels,
  type MenuProps,
} from './menu-common';

const PREFIX = 'mnav';
const PANEL_ID = `${PREFIX}-panel`;
/** The menu itself, among the keys of its groups (a slug never holds "#"). */
const MENU_KEY = '#menu';

interface MobileMenuLabels extends MenuLabels {
  /** The menu button's name. */
  readonly menu: string;
}

function MenuIcon() {
  return (
    <svg className="mobile-nav__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path className="mobile-nav__bars" d="M3 6h18M3 12h18M3 18h18" />
      <path className="mobile-nav__cross" d="M5 5l14 14M19 5L5 19" />
    </svg>
  );
}

export interface MobileNavProps extends MenuProps<MobileMenuLabels> {
  /** The language switch, at the end of the panel (none where the page has no twin). */
  readonly language?: LanguageLink | undefined;
}

export default function MobileNav({ entries, currentPath, labels, language }: MobileNavProps) {
  const nodes = useMemo(() => toMenuNodes(entries), [entries]);
  const rootRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());

  const enhanced = useEnhancement(rootRef, ({ openKeys }) => {
    setOpen(openKeys.includes(MENU_KEY));
    setExpanded(new Set(openKeys.filter((key) => key !== MENU_KEY)));
  });

  // While open: Escape closes it and returns focus to the menu button; a press outside closes it.
  useDismiss(
    rootRef,
    open,
    () => setOpen(false),
    (event) => {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    },
  );

  const languageSwitch = language ? (
    <p className="mobile-nav__language">
      <a href={language.href} lang={language.lang} hrefLang={language.lang}>
        {language.label}
      </a>
    </p>
  ) : null;

  const menuButtonContent = (
    <>
      <MenuIcon />
      <span className="mobile-nav__label">{labels.menu}</span>
    </>
  );

  if (!enhanced) {
    return (
      <nav className="mobile-nav" aria-label={labels.nav} ref={rootRef}>
        <details className="mobile-nav__menu" data-nav-key={MENU_KEY}>
          <summary className="mobile-nav__toggle" data-nav-key={MENU_KEY}>
            {menuButtonContent}
          </summary>
          <div className="mobile-nav__panel">
            <MenuList nodes={nodes} depth={0} name="mobile-nav" currentPath={currentPath} />
            {languageSwitch}
          </div>
        </details>
      </nav>
    );
  }

  const menu: DisclosureMenu = {
    prefix: PREFIX,
    labels,
    isOpen: (key) => expanded.has(key),
    toggle: (_event, key) =>
      setExpanded((previous) => {
        const next = new Set(previous);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
  };

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (next !== null && !event.currentTarget.contains(next)) setOpen(false);
  };

  const onPanelClick = (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest('a[href]')) setOpen(false);
  };

  return (
    <nav
      className="mobile-nav"
      aria-label={labels.nav}
      ref={rootRef}
      data-enhanced=""
      data-open={open ? '' : undefined}
      onBlur={onBlur}
    >
      <button
        ref={buttonRef}
        type="button"
        className="mobile-nav__toggle"
        aria-expanded={open}
        aria-controls={PANEL_ID}
        data-nav-key={MENU_KEY}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        {menuButtonContent}
      </button>
      {/* Clicks on the links bubble here: a destination chosen closes the menu. The links take the
          keyboard themselves; their activation arrives here as a click. */}
      {/* eslint-disable-next-line jsx-a11y-x/click-events-have-key-events, jsx-a11y-x/no-static-element-interactions */}
      <div id={PANEL_ID} className="mobile-nav__panel" hidden={!open} onClick={onPanelClick}>
        <MenuList nodes={nodes} depth={0} name="mobile-nav" currentPath={currentPath} menu={menu} />
        {languageSwitch}
      </div>
    </nav>
  );
}
