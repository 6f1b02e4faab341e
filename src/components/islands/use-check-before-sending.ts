/** The checks a form island runs before it sends, and the field errors they leave: one hook for both forms. */
import { useState, type RefObject } from 'react';
import { fieldIssues } from '../../forms/rules';
import { HONEYPOT_FIELD } from '../../forms/honeypot';
import type { FieldErrors } from './form-ui';

interface Check<T> {
  /** Required fields left empty, in form order. */
  missing: readonly string[];
  /** The alert for them (docs/requirements.md §7.2, §8.5). */
  alertText: string;
  /** The form's schema over the payload. */
  parse: () => { success: true; data: T } | { success: false; error: Parameters<typeof fieldIssues>[0] };
  honeypot: string;
}

/**
 * The browser's own checks of the visitor's fields, reported on the first that fails. The proof-of-work widget's
 * checkbox is no field of the visitor's: a form is never held back for it (the server holds a lead sent without one).
 */
function fieldsValid(form: HTMLFormElement): boolean {
  // As the form's own reportValidity(): every invalid field gets its `invalid` event, in the
  // form's order, and the first is reported (focused, its message shown).
  const invalid = Array.from(form.elements).filter(
    (element): element is HTMLInputElement =>
      !element.closest('altcha-widget') && 'validity' in element && !(element as HTMLInputElement).validity.valid,
  );
  const [first, ...rest] = invalid;
  if (!first) return true;
  first.reportValidity();
  for (const control of rest) control.checkValidity();
  return false;
}

/**
 * `check` runs the checks in the specification's order: the required-fields alert, the browser's type checks, the shared
 * schema (its problems reported in `order`, the form's). It marks and focuses what is wrong and returns undefined, or the
 * body to send (with the honeypot only when a bot filled it). `errors`: each field's problem from the last attempt.
 */
export function useCheckBeforeSending(
  formRef: RefObject<HTMLFormElement | null>,
  fieldId: (field: string) => string,
  order?: readonly string[],
) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusField = (field: string) => formRef.current?.querySelector<HTMLElement>(`#${fieldId(field)}`)?.focus();
  /** The visitor changed `field`: its error goes. */
  const clearError = (field: string) => setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  const clearErrors = () => setErrors({});

  function check<T extends object>({ missing, alertText, parse, honeypot }: Check<T>) {
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((field) => [field, 'required'])));
      window.alert(alertText);
      focusField(missing[0] ?? '');
      return undefined;
    }
    const form = formRef.current;
    if (form && !fieldsValid(form)) return undefined;
    const parsed = parse();
    if (!parsed.success) {
      const rank = (field: string) => {
        const index = order?.indexOf(field) ?? -1;
        return index < 0 ? Number.MAX_SAFE_INTEGER : index;
      };
      const issues = fieldIssues(parsed.error).sort((a, b) => rank(a.field) - rank(b.field));
      setErrors(Object.fromEntries(issues.map((issue) => [issue.field, issue.code])));
      focusField(issues[0]?.field ?? '');
      return undefined;
    }
    setErrors({});
    return honeypot ? { ...parsed.data, [HONEYPOT_FIELD]: honeypot } : parsed.data;
  }

  return { errors, check, clearError, clearErrors, focusField };
}
