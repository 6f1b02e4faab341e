/** The JavaScript budget per page type (performance-budgets.json), read from the build output. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { pageJavaScript, pageType, proofWidgetWeight } from '../../scripts/js-weight.ts';
import { ROOT } from '../helpers/content';

const CLIENT = path.join(ROOT, 'dist/client');
const budgets = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'performance-budgets.json'), 'utf8')) as {
    javascriptKbGzip: Record<'content' | 'home' | 'form', { budget: number; target: number; firstView: number }>;
  }
).javascriptKbGzip;

function htmlPages(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.isDirectory())
      return d.name === '_astro' || d.name === 'og' ? [] : htmlPages(path.join(dir, d.name), `${prefix}/${d.name}`);
    return d.name.endsWith('.html') ? [`${prefix}/${d.name.replace(/\.html$/, '')}`.replace(/^\/index$/, '/')] : [];
  });
}

describe('JavaScript before interaction stays within its page type’s budget', () => {
  const pages = fs.existsSync(CLIENT) ? htmlPages(CLIENT) : [];

  test('every built page is measured', () => {
    expect(pages.length).toBeGreaterThanOrEqual(36);
    expect(pages).toContain('/');
    expect(pages).toContain('/ContactUs');
  });

  test('no budget is looser than needed to hold a page type above its target without saying why', () => {
    for (const [type, { budget, target }] of Object.entries(budgets)) {
      expect(budget, type).toBeGreaterThanOrEqual(target);
      if (budget > target) expect((budgets as Record<string, { why?: string }>)[type]?.why, type).toBeTruthy();
    }
  });

  test('each page', () => {
    const over: string[] = [];
    for (const page of pages) {
      const html = fs.readFileSync(path.join(CLIENT, page === '/' ? 'index.html' : `${page}.html`), 'utf8');
      const { eager, firstView } = pageJavaScript(html, CLIENT);
      const type = pageType(page);
      const limit = budgets[type].budget * 1024;
      if (eager.gzipBytes > limit)
        over.push(`${page} (${type}): ${(eager.gzipBytes / 1024).toFixed(1)} KB > ${budgets[type].budget} KB`);
      if (firstView.gzipBytes > budgets[type].firstView * 1024) {
        over.push(
          `${page} (${type}) before its load event: ${(firstView.gzipBytes / 1024).toFixed(1)} KB > ${budgets[type].firstView} KB`,
        );
      }
    }
    expect(over).toEqual([]);
  });

  test('the measure counts what a page loads: a form page carries its island and React only once the visitor reaches for it, the home page its carousels only after its load event, a content page neither', () => {
    const contact = pageJavaScript(fs.readFileSync(path.join(CLIENT, 'ContactUs.html'), 'utf8'), CLIENT);
    const isRuntime = (f: string) =>
      /\/client\.[\w-]+\.js$/.test(f) && fs.readFileSync(path.join(CLIENT, f), 'utf8').includes('react-dom');
    expect(contact.eager.files.filter((f) => /ContactForm/.test(f) || isRuntime(f))).toEqual([]);
    // On interaction: the island, with React DOM's client reached through its imports.
    expect(contact.onInteraction.files.some((f) => /ContactForm/.test(f))).toBe(true);
    expect(contact.onInteraction.files.some(isRuntime)).toBe(true);
    expect(contact.onInteraction.gzipBytes).toBeGreaterThan(60 * 1024);
    // The home page's carousels start by themselves once the page has loaded
    // (client:intent with afterLoad): their island and React come after the load event, never
    // before it, in either language.
    for (const page of ['index.html', 'ar.html']) {
      const home = pageJavaScript(fs.readFileSync(path.join(CLIENT, page), 'utf8'), CLIENT);
      expect(
        home.firstView.files.filter((f) => /Carousel/.test(f) || isRuntime(f)),
        page,
      ).toEqual([]);
      expect(
        home.afterLoad.files.some((f) => /Carousel/.test(f)),
        page,
      ).toBe(true);
      expect(home.afterLoad.files.some(isRuntime), page).toBe(true);
    }
    const about = pageJavaScript(fs.readFileSync(path.join(CLIENT, 'AboutUs.html'), 'utf8'), CLIENT);
    expect(about.eager.files.filter((f) => /ContactForm|PartnerForm/.test(f) || isRuntime(f))).toEqual([]);
  });

  test('the form pages carry nothing of the proof-of-work widget (ALTCHA) before interaction, nor when the island starts: it comes on the first focus in the form, with no blob: worker', () => {
    const proof = proofWidgetWeight(CLIENT);
    expect(proof).toBeDefined();
    const ofProof = (files: readonly string[]) => files.filter((file) => proof!.files.includes(file) || /altcha/i.test(file));
    for (const page of ['ContactUs', 'Partner', 'ar/ContactUs', 'ar/Partner']) {
      const html = fs.readFileSync(path.join(CLIENT, `${page}.html`), 'utf8');
      expect(html, page).not.toMatch(/(?:href|src)="[^"]*altcha/i);
      const measured = pageJavaScript(html, CLIENT);
      expect(ofProof(measured.eager.files), page).toEqual([]);
      expect(ofProof(measured.onInteraction.files), page).toEqual([]);
    }
    // The island reaches it by a dynamic import only; its worker is a file of the site's own.
    const contact = pageJavaScript(fs.readFileSync(path.join(CLIENT, 'ContactUs.html'), 'utf8'), CLIENT);
    expect(
      contact.onInteraction.files.some((file) =>
        /import\(["'`][^"'`]*altcha-widget/.test(fs.readFileSync(path.join(CLIENT, file), 'utf8')),
      ),
    ).toBe(true);
    expect(proof!.workerGzipBytes).toBeGreaterThan(0);
    expect(proof!.usesBlob).toBe(false);
  });
});
