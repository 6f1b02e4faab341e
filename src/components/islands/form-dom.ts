/**
 * What a visitor put into a server-rendered form before its island started. On a slow phone they can type, choose and
 * tick before the script runs; hydration leaves those values in the page but not in the island's state, whose next
 * render would write empty values over them. So each island reads them once as it mounts (in a layout effect, before
 * paint) into its state: nothing is written back, and the focused field keeps its caret.
 */
import { useEffect, useEffectEvent, useLayoutEffect, useState, type RefObject } from 'react';
import { HONEYPOT_FIELD } from '../../forms/honeypot';

/** A form's value per field: text for inputs, text areas, selects and radio groups; a list for checkbox groups. */
type FieldValues = Record<string, string | string[]>;

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isControl = (element: Element): element is Control =>
  element.tagName === 'INPUT' || element.tagName === 'SELECT' || element.tagName === 'TEXTAREA';

/**
 * The fields of `shape` filled in `form` as the page holds them (the checked radio's value, the checked boxes' values
 * for a list). Empty fields are left out, so it can be laid over saved answers; file inputs are never read here.
 */
export function filledInPage<T extends FieldValues>(form: HTMLFormElement, shape: T): Partial<T> {
  const filled: FieldValues = {};
  const controls = Array.from(form.elements).filter(isControl);
  for (const [name, empty] of Object.entries(shape)) {
    const named = controls.filter((control) => control.name === name);
    if (Array.isArray(empty)) {
      const checked = named.filter(
        (control): control is HTMLInputElement => control.type === 'checkbox' && (control as HTMLInputElement).checked,
      );
      if (checked.length > 0) filled[name] = checked.map((control) => control.value);
      continue;
    }
    const control = named.find((candidate) => {
      if (candidate.type === 'file' || candidate.type === 'checkbox') return false;
      if (candidate.type === 'radio' && !(candidate as HTMLInputElement).checked) return false;
      return candidate.value.trim() !== '';
    });
    if (control) filled[name] = control.value;
  }
  return filled as Partial<T>;
}

/** The hidden field only bots fill (src/forms/honeypot.ts), as the page holds it: a script-driven bot is kept out of the leads too. */
export const honeypotInPage = (form: HTMLFormElement): string =>
  filledInPage(form, { [HONEYPOT_FIELD]: '' })[HONEYPOT_FIELD] ?? '';

/**
 * A form island's start, once, before paint: it checks the required fields itself (the browser still checks types
 * through reportValidity()), and `adopt` takes what the visitor put into the server's HTML, as the hook does the
 * honeypot; then the form is marked hydrated. And what the visitor typed is kept when they leave with Back and return:
 * React writes a text field's value into its `value` attribute too, and the browser restores only fields whose value
 * differs from that attribute; so as the page is hidden the attributes go back to the server's (none), and the values stay.
 */
export function useFormStart(formRef: RefObject<HTMLFormElement | null>, adopt: (form: HTMLFormElement) => void) {
  const [hydrated, setHydrated] = useState(false);
  const [honeypot, setHoneypot] = useState('');
  const start = useEffectEvent(adopt);
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    form.noValidate = true;
    start(form);
    setHoneypot(honeypotInPage(form));
    setHydrated(true);
  }, [formRef]);
  useEffect(() => {
    const onHide = () => {
      for (const input of formRef.current?.querySelectorAll('input[value]') ?? [])
        if (!['checkbox', 'radio', 'hidden', 'submit'].includes((input as HTMLInputElement).type)) input.removeAttribute('value');
    };
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [formRef]);
  return { hydrated, honeypot, setHoneypot };
}
