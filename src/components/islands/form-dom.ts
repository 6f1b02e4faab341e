/**
 * What a visitor put into a server-rendered form before its island started.
 *
 * The forms arrive as plain HTML first. On a slow phone a visitor can type, choose, tick and
 * pick files before the island's script has run. Hydrating leaves those values in the page
 * (React writes no field's value while hydrating), but the island's state
 * does not know them: the next render would write the state's empty value over them, and a
 * submit would find the fields missing. So each form island reads them once, as it mounts
 * (in a layout effect, before the browser paints and before any other render), and takes them
 * into its state. Their values then equal what the page shows, so nothing is written back and
 * the focused field keeps its caret.
 */
import { useEffect, type RefObject } from 'react';
import { HONEYPOT_FIELD } from '../../forms/honeypot';

/** A form's value per field: text for inputs, text areas, selects and radio groups; a list for checkbox groups. */
type FieldValues = Record<string, string | string[]>;

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isControl = (element: Element): element is Control =>
  element.tagName === 'INPUT' || element.tagName === 'SELECT' || element.tagName === 'TEXTAREA';

/**
 * The fields of `shape` that are filled in `form`, read from the page: a text input's, text
 * area's or select's value, the checked radio's value, the checked boxes' values for a field
 * whose value in `shape` is a list. Fields left empty (or only blank) are not in the result, so
 * it can be laid over saved answers: `{ ...draft, ...filledInPage(form, draft) }`. File inputs
 * are never read here (see `input.files`).
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
 * Keeps what the visitor typed when they leave the page and come back with Back. React writes a
 * text field's value into its `value` attribute too, and the browser restores on return only
 * the fields whose value differs from that attribute: every typed answer was lost. As the page
 * is hidden, the attributes are taken back to the server's (none); the values stay.
 */
export function useAnswersKeptOnBack(formRef: RefObject<HTMLFormElement | null>): void {
  useEffect(() => {
    const onHide = () => {
      for (const input of formRef.current?.querySelectorAll('input[value]') ?? [])
        if (!['checkbox', 'radio', 'hidden', 'submit'].includes((input as HTMLInputElement).type)) input.removeAttribute('value');
    };
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [formRef]);
}
