// @vitest-environment jsdom
/**
 * The form islands take over what the visitor put into the server-rendered HTML before they
 * started (src/components/islands/form-dom.ts): the reading itself, and each island rendered on
 * the "server", typed into, then hydrated by React as the page does.
 */
import { act, createElement, type FunctionComponent } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import ContactForm from '../../src/components/islands/ContactForm';
import PartnerForm from '../../src/components/islands/PartnerForm';
import { filledInPage, honeypotInPage } from '../../src/components/islands/form-dom';
import { PARTNER_DRAFT_KEY, emptyPartner } from '../../src/forms/partner';
import { countryList } from '../../src/forms/country-list';
import { formStrings, locales } from '../../src/i18n';
import { PROOF_WAIT_MS } from '../../src/components/islands/use-proof';
import { TYPING_PAUSE_MS } from '../../src/lib/typing-pause';

// The proof of work's widget (ALTCHA) does not run in jsdom: its script is a stand-in here, and
// the tests below play its part (its `statechange` event with a solution).
vi.mock('../../src/components/islands/altcha-widget', () => ({ registerStrings: () => {}, stylesReady: Promise.resolve() }));

const direct = { email: 'info@example.com', phone: '+966 13 000 0000', phoneHref: 'tel:+966130000000', privacyHref: '/Privacy' };
/** The props the pages give the islands (src/components/pages/ContactPage.astro, PartnerPage.astro), in English unless told. */
const contactProps = (endpoint: string, locale = locales.en) => ({ endpoint, direct, strings: formStrings('contact', locale) });
const partnerProps = (endpoint: string, locale = locales.en) => ({
  endpoint,
  direct,
  strings: formStrings('partner', locale),
  countries: countryList(locale.lang),
  localDigits: locale !== locales.en,
});
let root: Root | undefined;

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type Island<P> = FunctionComponent<P>;

beforeEach(() => {
  window.localStorage.clear();
});

afterEach(() => {
  if (root) act(() => root!.unmount());
  root = undefined;
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The island's server HTML in the page, as the visitor sees it before any script runs. */
function serverRender<P extends object>(component: Island<P>, props: P): HTMLFormElement {
  const island = document.createElement('div');
  island.innerHTML = renderToString(createElement(component, props));
  document.body.append(island);
  return island.querySelector('form')!;
}

async function hydrate<P extends object>(form: HTMLFormElement, component: Island<P>, props: P) {
  const container = form.parentElement!;
  await act(async () => {
    root = hydrateRoot(container, createElement(component, props));
  });
}

/**
 * A value put into a control as the browser does when a visitor types or chooses: through the
 * element's own `value` setter, so React (which watches the property) sees a change in the
 * event that follows.
 */
function setValue(control: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value')!.set!.call(control, value);
}

/** What a visitor types into a control, before the island starts or after. */
function type(form: HTMLFormElement, selector: string, value: string) {
  const control = form.querySelector<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(selector)!;
  setValue(control, value);
  control.dispatchEvent(new Event('input', { bubbles: true }));
}
function tick(form: HTMLFormElement, selector: string) {
  form.querySelector<HTMLInputElement>(selector)!.checked = true;
}

describe('filledInPage', () => {
  const form = () => {
    const element = document.createElement('form');
    element.innerHTML = `
      <input name="name" value="Aisha">
      <input name="blank" value="   ">
      <input name="untouched">
      <textarea name="note">Line one
line two</textarea>
      <select name="country"><option value="">Choose</option><option selected>Oman</option></select>
      <select name="unchosen"><option value="">Choose</option><option>Oman</option></select>
      <input type="checkbox" name="markets" value="Service" checked>
      <input type="checkbox" name="markets" value="Education">
      <input type="checkbox" name="markets" value="Other" checked>
      <input type="checkbox" name="none" value="A">
      <input type="radio" name="classroom" value="Yes">
      <input type="radio" name="classroom" value="No" checked>
      <input type="radio" name="unanswered" value="Yes">
      <input type="file" name="cv">
      <input type="hidden" name="homepage" value="http://spam.example">
      <button name="name" value="not a field">Send</button>`;
    return element;
  };

  test('takes the filled fields only: text, text area, select, ticked boxes as a list, the checked radio', () => {
    const shape = {
      name: '',
      blank: '',
      untouched: '',
      note: '',
      country: '',
      unchosen: '',
      markets: [] as string[],
      none: [] as string[],
      classroom: '',
      unanswered: '',
      cv: '',
      missing: '',
    };
    expect(filledInPage(form(), shape)).toEqual({
      name: 'Aisha',
      note: 'Line one\nline two',
      country: 'Oman',
      markets: ['Service', 'Other'],
      classroom: 'No',
    });
  });

  test('laid over a draft, the page wins where it is filled and the draft fills the rest', () => {
    const draft = { name: 'Old', untouched: 'From the draft', markets: ['Education'], classroom: 'Yes', unanswered: 'No' };
    expect({ ...draft, ...filledInPage(form(), draft) }).toEqual({
      name: 'Aisha',
      untouched: 'From the draft',
      markets: ['Service', 'Other'],
      classroom: 'No',
      unanswered: 'No',
    });
  });

  test('reads the honeypot a bot filled', () => {
    expect(honeypotInPage(form())).toBe('http://spam.example');
    expect(honeypotInPage(document.createElement('form'))).toBe('');
  });
});

describe('hydrating over what the visitor typed', () => {
  test('contact: the typed fields stay, are the state, and are what is sent', async () => {
    const props = contactProps('/api/contact');
    const form = serverRender(ContactForm, props);
    type(form, '#contact-firstName', 'Omar');
    type(form, '#contact-lastName', 'Al-Harbi');
    type(form, '#contact-email', 'omar@example.com');
    type(form, '#contact-message', 'Schedule Q, please.');
    const message = form.querySelector<HTMLTextAreaElement>('#contact-message')!;
    message.focus();
    message.setSelectionRange(3, 3);

    await hydrate(form, ContactForm, props);
    expect(form.noValidate).toBe(true); // the island runs
    expect(form.querySelector<HTMLInputElement>('#contact-firstName')!.value).toBe('Omar');
    expect(message.value).toBe('Schedule Q, please.');
    expect(document.activeElement).toBe(message);
    expect(message.selectionStart).toBe(3);

    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const fetch = vi.fn(async () => new Response('{"id":"1"}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await act(async () => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(alert).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(JSON.parse(String(init.body))).toMatchObject({
      firstName: 'Omar',
      lastName: 'Al-Harbi',
      email: 'omar@example.com',
      message: 'Schedule Q, please.',
      city: '',
    });
  });

  test('partner: the page wins over the saved draft field by field; the result is the new draft; chosen files are listed', async () => {
    window.localStorage.setItem(
      PARTNER_DRAFT_KEY,
      JSON.stringify({ ...emptyPartner(), name: 'Old Name', cityName: 'Khobar', targetMarkets: ['Education'] }),
    );
    const props = partnerProps('/api/partner');
    const form = serverRender(PartnerForm, props);
    type(form, '#partner-name', 'Aisha Al-Qahtani');
    type(form, '#partner-country', 'Oman');
    type(form, '#partner-interestReason', 'Growing demand.');
    tick(form, '#partner-targetMarkets input[value="Healthcare"]');
    tick(form, '#partner-classroomAvailable input[value="No"]');
    const cv = new File(['%PDF-1.4'], 'cv.pdf', { type: 'application/pdf' });
    Object.defineProperty(form.querySelector('input[type="file"]')!, 'files', { configurable: true, value: [cv] });

    await hydrate(form, PartnerForm, props);
    expect(form.hasAttribute('data-hydrated')).toBe(true);
    const value = (selector: string) => form.querySelector<HTMLInputElement>(selector)!.value;
    expect(value('#partner-name')).toBe('Aisha Al-Qahtani');
    expect(value('#partner-country')).toBe('Oman');
    expect(value('#partner-interestReason')).toBe('Growing demand.');
    expect(value('#partner-cityName')).toBe('Khobar');
    const ticked = Array.from(form.querySelectorAll<HTMLInputElement>('#partner-targetMarkets input:checked')).map(
      (box) => box.value,
    );
    expect(ticked).toEqual(['Healthcare']);
    expect(form.querySelector<HTMLInputElement>('#partner-classroomAvailable input[value="No"]')!.checked).toBe(true);
    expect(Array.from(form.querySelectorAll('.selected-files__name')).map((item) => item.textContent)).toEqual(['cv.pdf']);

    expect(JSON.parse(window.localStorage.getItem(PARTNER_DRAFT_KEY) ?? '{}')).toMatchObject({
      name: 'Aisha Al-Qahtani',
      country: 'Oman',
      cityName: 'Khobar',
      interestReason: 'Growing demand.',
      targetMarkets: ['Healthcare'],
      classroomAvailable: 'No',
    });
  });

  test('partner: nothing typed and no draft, nothing is saved', async () => {
    const props = partnerProps('/api/partner');
    const form = serverRender(PartnerForm, props);
    await hydrate(form, PartnerForm, props);
    expect(form.hasAttribute('data-hydrated')).toBe(true);
    expect(window.localStorage.getItem(PARTNER_DRAFT_KEY)).toBeNull();
  });

  test('partner: the draft is written in a pause of the typing, and at once when the page is left', async () => {
    const props = partnerProps('/api/partner');
    const form = serverRender(PartnerForm, props);
    await hydrate(form, PartnerForm, props);
    const saved = () =>
      JSON.parse(window.localStorage.getItem(PARTNER_DRAFT_KEY) ?? '{}') as { name?: string; cityName?: string };
    vi.useFakeTimers();
    try {
      await act(async () => type(form, '#partner-name', 'Aisha'));
      // Not on the key itself: a key costs the page as little as it can.
      expect(saved().name).toBeUndefined();
      await act(async () => vi.advanceTimersByTime(200));
      await act(async () => type(form, '#partner-name', 'Aisha Al-Qahtani'));
      await act(async () => vi.advanceTimersByTime(300));
      expect(saved().name).toBeUndefined();
      await act(async () => vi.advanceTimersByTime(150));
      expect(saved().name).toBe('Aisha Al-Qahtani');

      await act(async () => type(form, '#partner-cityName', 'Dammam'));
      expect(saved().cityName).toBe('');
      // Leaving the page (a reload, a link, the tab closed) writes what was typed last.
      window.dispatchEvent(new Event('pagehide'));
      expect(saved().cityName).toBe('Dammam');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the partner form and its files', () => {
  test('to the site’s own receiver the files travel with the application, also without JavaScript', () => {
    const form = serverRender(PartnerForm, partnerProps('/api/partner'));
    expect(form.getAttribute('enctype')).toBe('multipart/form-data');
    expect(form.querySelector('#partner-files-note')?.textContent).toBe(
      'Your files are sent with your application and seen only by our staff.',
    );
  });

  test('to an external endpoint only the names go (docs/requirements.md §9.3): a plain form, and the note says so', () => {
    const form = serverRender(PartnerForm, partnerProps('https://script.example.com/exec'));
    expect(form.getAttribute('enctype')).toBeNull();
    expect(form.querySelector('#partner-files-note')?.textContent).toBe(
      'Only the file names are sent with your application; we will ask for the files themselves when we reply.',
    );
  });
});

describe('the forms in Arabic', () => {
  const ar = locales.ar.strings;

  test('contact: Arabic words from the page, the Arabic alert, and the lead sent with its language', async () => {
    const props = contactProps('/api/contact?lang=ar', locales.ar);
    const form = serverRender(ContactForm, props);
    expect(form.querySelector('label[for="contact-firstName"]')?.textContent).toBe(
      `${ar['contact.field.firstName']} (${ar['form.required']})`,
    );
    expect(form.querySelector('button[type="submit"]')?.textContent).toBe(ar['contact.submit']);
    expect(form.getAttribute('action')).toBe('/api/contact?lang=ar');
    await hydrate(form, ContactForm, props);

    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    await act(async () => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(alert).toHaveBeenCalledWith(ar['contact.alert.required']);
    expect(form.querySelector('.error-summary__title')?.textContent).toBe(ar['form.errorSummary']);
    expect(form.querySelector('#contact-firstName-error')?.textContent).toBe(ar['form.issue.required']);

    await act(() => {
      type(form, '#contact-firstName', 'عمر');
      type(form, '#contact-lastName', 'الحربي');
      type(form, '#contact-email', 'omar@example.com');
    });
    const fetch = vi.fn(async () => new Response('{"id":"1"}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await act(async () => {
      form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new URL(url).pathname + new URL(url).search).toBe('/api/contact?lang=ar');
    // The body keeps the specification's field names (docs/requirements.md §7.3, §8.7); the language travels in the address.
    expect(Object.keys(JSON.parse(String(init.body))).sort()).toEqual([
      'city',
      'company',
      'country',
      'email',
      'firstName',
      'lastName',
      'message',
      'submissionDate',
      'submissionTimestamp',
    ]);
  });

  test('partner: countries in Arabic with English answers, counts take Arabic-Indic digits and are sent as numbers', async () => {
    const props = partnerProps('/api/partner?lang=ar', locales.ar);
    const form = serverRender(PartnerForm, props);
    const saudi = form.querySelector<HTMLOptionElement>('#partner-country option[value="Saudi Arabia"]');
    expect(saudi?.textContent).toBe('المملكة العربية السعودية');
    const years = form.querySelector<HTMLInputElement>('#partner-yearsInBusiness')!;
    expect(years.type).toBe('text');
    expect(years.getAttribute('inputmode')).toBe('numeric');
    expect(form.querySelector('legend')?.textContent).toBe(ar['partner.section.basic']);
    await hydrate(form, PartnerForm, props);

    const answers: Record<string, string> = {
      '#partner-name': 'عائشة القحطاني',
      '#partner-organization': 'مؤسسة الجودة',
      '#partner-jobTitle': 'مديرة',
      '#partner-country': 'Saudi Arabia',
      '#partner-cityName': 'الخبر',
      '#partner-email': 'aisha@example.com',
      '#partner-phoneNumber': '٠٥٠١٢٣٤٥٦٧',
      '#partner-companyWebsite': 'https://example.com',
      '#partner-yearsInBusiness': 'اثنا عشر',
      '#partner-numberOfEmployees': '۳۴',
    };
    const answer = (selector: string, text: string) => {
      const field = form.querySelector<HTMLInputElement | HTMLSelectElement>(selector)!;
      setValue(field, text);
      field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    };
    await act(() => {
      for (const [selector, text] of Object.entries(answers)) answer(selector, text);
      // The form of ownership: radio buttons, each sending the specification's English words.
      form.querySelector<HTMLInputElement>('#partner-formOfOwnership input[value="Corporation (publicly held)"]')!.click();
    });
    vi.spyOn(window, 'alert').mockImplementation(() => {});
    const fetch = vi.fn(async () => new Response('{"id":"1"}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    const send = () =>
      act(async () => {
        form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      });
    // A count in words is refused in Arabic, and nothing is sent.
    await send();
    expect(form.querySelector('#partner-yearsInBusiness-error')?.textContent).toBe(ar['form.issue.invalidNumber']);
    expect(fetch).not.toHaveBeenCalled();

    await act(() => answer('#partner-yearsInBusiness', '١٢'));
    await send();
    expect(form.querySelector('.error-summary')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new URL(url).search).toBe('?lang=ar');
    const body = init.body as FormData;
    expect(body.get('yearsInBusiness')).toBe('12');
    expect(body.get('numberOfEmployees')).toBe('34');
    expect(body.get('country')).toBe('Saudi Arabia');
    expect(body.get('formOfOwnership')).toBe('Corporation (publicly held)');
  });
});

describe('the proof of work when the visitor sends (src/components/islands/use-proof.tsx)', () => {
  const props = () => ({ ...contactProps('/api/contact'), proof: { challengeUrl: '/api/challenge' } });

  /** The contact form, hydrated and filled in; the visitor has reached it (the widget is coming). */
  async function reachedForm() {
    const form = serverRender(ContactForm, props());
    await hydrate(form, ContactForm, props());
    vi.useFakeTimers();
    await act(async () => {
      type(form, '#contact-firstName', 'Huda');
      type(form, '#contact-lastName', 'Al-Dossary');
      type(form, '#contact-email', 'huda@example.com');
      form.querySelector<HTMLInputElement>('#contact-firstName')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    });
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response('{"id":"1"}', { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    const sent = () => fetch.mock.calls.map(([, init]) => JSON.parse(String(init.body)) as Record<string, unknown>);
    const send = () =>
      act(async () => {
        form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      });
    return { form, sent, send };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  test(`without a solution, a send waits ${PROOF_WAIT_MS} ms for one, then goes without it (the server holds the lead): never blocked`, async () => {
    const { form, sent, send } = await reachedForm();
    await send();
    expect(form.getAttribute('data-status')).toBe('submitting');
    await act(async () => vi.advanceTimersByTime(PROOF_WAIT_MS - 1));
    expect(sent()).toEqual([]);
    await act(async () => vi.advanceTimersByTime(1));
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).not.toHaveProperty('altcha');
    expect(sent()[0]).toMatchObject({ firstName: 'Huda', lastName: 'Al-Dossary' });
    await act(async () => {});
    expect(form.getAttribute('data-status')).toBe('success');
  });

  test('answers the visitor did not type here (autofill, no focus or press) start the proof', async () => {
    const form = serverRender(ContactForm, props());
    await hydrate(form, ContactForm, props());
    vi.useFakeTimers();
    await act(async () => type(form, '#contact-firstName', 'Huda'));
    await act(async () => vi.advanceTimersByTime(TYPING_PAUSE_MS));
    await vi.waitFor(() => expect(form.querySelector('altcha-widget')).not.toBeNull());
  });

  test('a restored partner draft starts the proof before any focus or press', async () => {
    window.localStorage.setItem(PARTNER_DRAFT_KEY, JSON.stringify({ ...emptyPartner(), name: 'Aisha Al-Qahtani' }));
    const partner = { ...partnerProps('/api/partner'), proof: { challengeUrl: '/api/challenge' } };
    const form = serverRender(PartnerForm, partner);
    await hydrate(form, PartnerForm, partner);
    await vi.waitFor(() => expect(form.querySelector('altcha-widget')).not.toBeNull());
  });

  test('a solution whose challenge asks for 3 s goes 3 s after it came, never sooner: the server finds no one too fast', async () => {
    const { form, sent, send } = await reachedForm();
    await act(async () => vi.advanceTimersByTime(TYPING_PAUSE_MS));
    await vi.waitFor(() => expect(form.querySelector('altcha-widget')).not.toBeNull());
    const payload = btoa(
      JSON.stringify({ challenge: { parameters: { data: { issued: 0, min: 3 } }, signature: 's' }, solution: { counter: 1 } }),
    );
    await act(async () => {
      form
        .querySelector('altcha-widget')!
        .dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
    });
    await act(async () => vi.advanceTimersByTime(1000));
    await send();
    await act(async () => vi.advanceTimersByTime(1900));
    expect(sent()).toEqual([]);
    await act(async () => vi.advanceTimersByTime(100));
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatchObject({ altcha: payload });
  });

  test('a lead the server holds for review: the visitor is told so, never "sent", and the answers stay', async () => {
    const { form, send } = await reachedForm();
    vi.stubGlobal('fetch', async () => new Response('{"id":"1","review":true}', { status: 201 }));
    await send();
    await act(async () => vi.advanceTimersByTime(PROOF_WAIT_MS));
    await act(async () => {});
    expect(form.getAttribute('data-status')).toBe('held');
    expect(form.querySelector('[role="alert"] .banner__title')?.textContent).toBe(locales.en.strings['form.held.title']);
    expect(form.querySelector('.banner--success')).toBeNull();
    expect(form.querySelector<HTMLInputElement>('#contact-lastName')!.value).toBe('Al-Dossary');
  });

  test('a solution that comes within the wait goes with the message at once', async () => {
    const { form, sent, send } = await reachedForm();
    // The visitor's pause: the widget's script runs and the widget is drawn (it starts solving).
    await act(async () => vi.advanceTimersByTime(TYPING_PAUSE_MS));
    await vi.waitFor(() => expect(form.querySelector('altcha-widget')).not.toBeNull());
    await send();
    await act(async () => vi.advanceTimersByTime(PROOF_WAIT_MS / 2));
    expect(sent()).toEqual([]);
    await act(async () => {
      form
        .querySelector('altcha-widget')!
        .dispatchEvent(new CustomEvent('statechange', { detail: { state: 'verified', payload: 'solved-payload' } }));
    });
    expect(sent()).toHaveLength(1);
    expect(sent()[0]).toMatchObject({ firstName: 'Huda', altcha: 'solved-payload' });
  });
});
