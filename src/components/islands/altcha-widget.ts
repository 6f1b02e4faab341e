/**
 * The ALTCHA widget (a web component), loaded by use-proof.tsx only once the visitor reaches a form field. The
 * `altcha/external` build keeps its CSS and its worker in files of the site's own (CSP style-src and script-src 'self':
 * no `blob:` worker, no 'unsafe-inline'). Only the algorithm the server asks for (SHA-256) is registered.
 */
import 'altcha/external';
import ShaWorker from 'altcha/workers/sha?worker';
// Their addresses only: imported as stylesheets, the build would link them from the form pages'
// head, loaded before anyone reaches a form. They are linked here, when the widget comes.
import altchaCss from 'altcha/altcha.css?url';
import siteCss from './altcha-widget.css?url';

/** Settles once both stylesheets are in (or failed): the widget is drawn styled, at its own height, never restyled in place. */
export const stylesReady = Promise.all(
  [altchaCss, siteCss].map((href) => {
    if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return undefined;
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href });
    const settled = new Promise((resolve) => {
      link.addEventListener('load', resolve);
      link.addEventListener('error', resolve);
    });
    document.head.append(link);
    return settled;
  }),
);

interface AltchaGlobal {
  readonly algorithms: Map<string, () => Worker>;
  readonly i18n: {
    get(name: string): Record<string, string> | undefined;
    set(name: string, value: Record<string, string>): void;
  };
}

const altcha = (globalThis as unknown as { $altcha: AltchaGlobal }).$altcha;
altcha.algorithms.set('SHA-256', () => new ShaWorker());

/** The widget's words in a language the page hands over (they come from `altcha/i18n/<code>` at build). */
export function registerStrings(language: string, strings: Readonly<Record<string, string>> | undefined): void {
  if (strings && !altcha.i18n.get(language)) altcha.i18n.set(language, { ...strings });
}
