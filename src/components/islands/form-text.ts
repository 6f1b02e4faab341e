/**
 * The words of a form island: the page hands them over as a prop (`formStrings`), and the island and its building blocks
 * read them through `FormText`, provided once at the top of the form. No island imports a dictionary.
 */
import { createContext, useContext } from 'react';
import type { FormKey, FormOfStrings, FormStrings } from '../../i18n';
import { fillTemplate, templateParts } from '../../i18n/template';

export interface FormText<K extends string> {
  /** The string `key` with its `{name}` placeholders filled from `values`. */
  (key: K, values?: Readonly<Record<string, string | number>>): string;
  /** The string `key` cut at its placeholders, for a component that puts an element in each. */
  parts(key: K): (string | { readonly slot: string })[];
}

/** The words `strings` as a `FormText`; a key the page did not hand over is an error, never a blank. */
export function formText<F extends FormOfStrings>(strings: FormStrings<F>): FormText<FormKey<F>> {
  const template = (key: FormKey<F>): string => {
    const text = (strings as Readonly<Record<string, string>>)[key];
    if (typeof text !== 'string') throw new Error(`The form's strings have no "${key}"`);
    return text;
  };
  const text = ((key: FormKey<F>, values = {}) => fillTemplate(template(key), values)) as FormText<FormKey<F>>;
  text.parts = (key) => templateParts(template(key));
  return text;
}

/** The shared words (`form.*`) the building blocks need, from the form they are in. */
export const FormTextContext = createContext<FormText<FormKey<never>> | null>(null);

export function useFormText(): FormText<FormKey<never>> {
  const text = useContext(FormTextContext);
  if (!text) throw new Error('A form building block is rendered outside a form (FormTextContext)');
  return text;
}
