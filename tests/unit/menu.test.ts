/**
 * The header menu's pure logic (src/lib/menu.ts): the tree the islands render, and the desktop
 * dropdowns' open/closed rules (docs/requirements.md §3.1: open on hover, close 150 ms after the pointer leaves).
 */
import { describe, expect, test } from 'vitest';
import {
  CLOSE_DELAY_MS,
  CLOSED,
  closesOnLeave,
  leadsTo,
  menuReducer,
  pathTo,
  replaceHref,
  slugify,
  toMenuNodes,
  type MenuAction,
  type MenuNode,
  type MenuState,
  type ResolvedNavEntry,
} from '../../src/lib/menu';
import { ABOUT_HREF, ABOUT_MOBILE_HREF, navigation } from '../../src/data/navigation';

const tree: ResolvedNavEntry[] = [
  { label: 'About Us', href: '/AboutUs' },
  {
    label: 'Trainings',
    items: [
      {
        label: 'ISO Trainings',
        items: [
          {
            label: 'ISO Awareness Training',
            href: '/Trainings/ISOTrainings/ISOAwarenessTraining',
            children: [{ label: 'ISO 9001:2015', href: '/Trainings/ISOTrainings/ISOAwarenessTraining#iso-9001-2015' }],
          },
        ],
      },
      { label: 'Other Trainings', href: '/Trainings/OtherTrainings' },
    ],
  },
];

const run = (actions: MenuAction[], from: MenuState = CLOSED) => actions.reduce(menuReducer, from);
const T = 'trainings';
const ISO = 'trainings/iso-trainings';
const AWARENESS = 'trainings/iso-trainings/iso-awareness-training';

describe('the menu tree', () => {
  test('every node gets a key from the labels above it; a page with standards gets them as a submenu', () => {
    const nodes = toMenuNodes(tree);
    expect(nodes[0]).toEqual({ key: 'about-us', label: 'About Us', href: '/AboutUs' });
    const awareness = nodes[1]?.items?.[0]?.items?.[0];
    expect(awareness?.key).toBe(AWARENESS);
    expect(awareness?.href).toBe('/Trainings/ISOTrainings/ISOAwarenessTraining');
    expect(awareness?.items?.map((n) => [n.key, n.label])).toEqual([[`${AWARENESS}/iso-9001-2015`, 'ISO 9001:2015']]);
  });

  test('the whole navigation of the specification has unique keys', () => {
    const keys: string[] = [];
    const collect = (nodes: readonly MenuNode[]) =>
      nodes.forEach((n) => {
        keys.push(n.key);
        if (n.items) collect(n.items);
      });
    collect(toMenuNodes(navigation));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('laboratory-management-services-17025/support-for-accreditation-process');
  });

  test('two siblings with the same key are an error naming the key', () => {
    expect(() =>
      toMenuNodes([
        { label: 'A b', href: '/1' },
        { label: 'A-B', href: '/2' },
      ]),
    ).toThrow('"a-b"');
  });

  test('slugs and key paths', () => {
    expect(slugify('Laboratory Management Services (17025)')).toBe('laboratory-management-services-17025');
    expect(slugify('ISO/IEC 17025:2017')).toBe('iso-iec-17025-2017');
    expect(pathTo(AWARENESS)).toEqual([T, ISO, AWARENESS]);
  });

  test('the mobile tree links About as /Aboutus and changes nothing else', () => {
    const mobile = replaceHref(tree, ABOUT_HREF, ABOUT_MOBILE_HREF);
    expect(mobile[0]).toEqual({ label: 'About Us', href: '/Aboutus' });
    expect(mobile[1]).toEqual(tree[1]);
    expect(tree[0]).toEqual({ label: 'About Us', href: '/AboutUs' });
  });

  test('a group leads to the current page when it holds it at any depth', () => {
    const [about, trainings] = toMenuNodes(tree);
    expect(trainings && leadsTo(trainings, '/Trainings/ISOTrainings/ISOAwarenessTraining')).toBe(true);
    expect(trainings && leadsTo(trainings, '/AboutUs')).toBe(false);
    expect(about && leadsTo(about, '/AboutUs')).toBe(true);
  });
});

describe('desktop dropdown state', () => {
  test('the close delay is the specification’s 150 ms', () => {
    expect(CLOSE_DELAY_MS).toBe(150);
  });

  test('hovering opens a dropdown and its submenus; they close when the pointer leaves them', () => {
    const state = run([
      { type: 'hover', key: T },
      { type: 'hover', key: ISO },
      { type: 'hover', key: AWARENESS },
    ]);
    expect(state).toEqual({ open: [T, ISO, AWARENESS], pinned: 0 });
    expect(closesOnLeave(state, T)).toBe(true);
    expect(closesOnLeave(state, AWARENESS)).toBe(true);
    expect(run([{ type: 'collapse', key: ISO }], state)).toEqual({ open: [T], pinned: 0 });
  });

  test('coming back to an open item (or up a level) closes nothing', () => {
    const state = run([{ type: 'hover', key: ISO }]);
    expect(state.open).toEqual([T, ISO]);
    expect(run([{ type: 'hover', key: T }], state)).toBe(state);
    expect(run([{ type: 'hover', key: ISO }], state)).toBe(state);
  });

  test('hovering another dropdown switches to it at once', () => {
    const state = run([
      { type: 'hover', key: ISO },
      { type: 'hover', key: 'audit-assistance' },
    ]);
    expect(state).toEqual({ open: ['audit-assistance'], pinned: 0 });
  });

  test('a click opens and pins; a second click closes; a click on a hover-opened dropdown pins it', () => {
    const clicked = run([{ type: 'toggle', key: T, source: 'pointer' }]);
    expect(clicked).toEqual({ open: [T], pinned: 1 });
    expect(closesOnLeave(clicked, T)).toBe(false);
    expect(run([{ type: 'toggle', key: T, source: 'pointer' }], clicked)).toEqual(CLOSED);

    const hovered = run([
      { type: 'hover', key: T },
      { type: 'toggle', key: T, source: 'pointer' },
    ]);
    expect(hovered).toEqual({ open: [T], pinned: 1 });
  });

  test('Enter and Space always toggle', () => {
    const hovered = run([{ type: 'hover', key: T }]);
    expect(run([{ type: 'toggle', key: T, source: 'keyboard' }], hovered)).toEqual(CLOSED);
    expect(run([{ type: 'toggle', key: T, source: 'keyboard' }])).toEqual({ open: [T], pinned: 1 });
  });

  test('inside a pinned dropdown, hovered submenus still close when left; the pinned level stays', () => {
    const state = run([
      { type: 'toggle', key: T, source: 'pointer' },
      { type: 'hover', key: ISO },
    ]);
    expect(state).toEqual({ open: [T, ISO], pinned: 1 });
    expect(closesOnLeave(state, ISO)).toBe(true);
    expect(closesOnLeave(state, T)).toBe(false);
  });

  test('closing a nested submenu closes what is open inside it and keeps its parents', () => {
    const state = run([
      { type: 'toggle', key: T, source: 'keyboard' },
      { type: 'toggle', key: ISO, source: 'keyboard' },
      { type: 'toggle', key: AWARENESS, source: 'keyboard' },
      { type: 'toggle', key: ISO, source: 'keyboard' },
    ]);
    expect(state).toEqual({ open: [T], pinned: 1 });
  });

  test('Escape closes the innermost level first', () => {
    const state = run([{ type: 'hover', key: AWARENESS }]);
    const once = run([{ type: 'closeInnermost' }], state);
    expect(once.open).toEqual([T, ISO]);
    expect(run([{ type: 'closeInnermost' }, { type: 'closeInnermost' }], once)).toEqual(CLOSED);
  });

  test('collapsing something closed, or closing everything twice, changes nothing', () => {
    const state = run([{ type: 'hover', key: T }]);
    expect(run([{ type: 'collapse', key: 'audit-assistance' }], state)).toBe(state);
    expect(run([{ type: 'closeAll' }])).toBe(CLOSED);
  });

  test('what the visitor opened before the island started is adopted as pinned', () => {
    expect(run([{ type: 'restore', open: [T, ISO], pinned: 2 }])).toEqual({ open: [T, ISO], pinned: 2 });
  });
});
