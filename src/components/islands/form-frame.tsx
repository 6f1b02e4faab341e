/**
 * What surrounds the fields of the two form islands: the error summary, the outcome banners, the privacy note and the
 * honeypot. Rendered on the server too, so the forms work as plain HTML forms without JavaScript.
 */
import { Fragment, useEffect, useRef } from 'react';
import { useFormText, type FormText } from './form-text';
import type { FieldErrors } from './form-ui';
import type { FormKey } from '../../i18n';
import type { IssueCode } from '../../forms/rules';
import { HONEYPOT_FIELD } from '../../forms/honeypot';
import { mailtoHref } from '../../forms/mailto';

/** A link list of the errors, above the form, shown after a failed attempt (WCAG 3.3.1, 3.3.3). */
export function ErrorSummary({
  errors,
  labelFor,
  idFor,
}: {
  errors: FieldErrors;
  labelFor: (field: string) => string;
  idFor: (field: string) => string;
}) {
  const text = useFormText();
  const entries = Object.entries(errors).filter((entry): entry is [string, IssueCode] => entry[1] !== undefined);
  if (entries.length === 0) return null;
  return (
    <div className="error-summary" tabIndex={-1} role="group" aria-labelledby="error-summary-title">
      <p id="error-summary-title" className="error-summary__title">
        {text('form.errorSummary')}
      </p>
      <ul>
        {entries.map(([field, code]) => (
          <li key={field}>
            <a href={`#${idFor(field)}`}>
              {labelFor(field)}: {text(`form.issue.${code}`)}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The banner after a send (docs/requirements.md §11.2); focus moves to it so everyone learns the outcome. Not sent or held,
 * the answers stay, with two ways around the form: an e-mail with them written in (`mailBody`), and the phone number.
 */
export function SendOutcome({ form, status, direct, mailBody }: SendOutcomeProps) {
  const text = useFormText() as FormText<FormKey<'contact' | 'partner'>>;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (status === 'success' || status === 'failure' || status === 'held') ref.current?.focus();
  }, [status]);
  if (status !== 'success' && status !== 'failure' && status !== 'held') return null;
  const kind = status === 'success' ? 'success' : 'failure';
  const key = status === 'held' ? 'form.held' : (`${form}.${kind}` as const);
  // Written left to right in any language: in an Arabic sentence the groups of a number would
  // otherwise be laid out right to left ("0000 000 13 966+").
  const link = (slot: string) =>
    slot === 'email' ? (
      <a href={mailtoHref(direct.email, text(`${form}.failure.mailSubject`), mailBody())} dir="ltr">
        {direct.email}
      </a>
    ) : (
      <a href={direct.phoneHref} className="banner__phone" dir="ltr">
        {direct.phone}
      </a>
    );
  return (
    <div ref={ref} className={`banner banner--${kind}`} role={kind === 'failure' ? 'alert' : 'status'} tabIndex={-1}>
      <p className="banner__title">{text(`${key}.title`)}</p>
      <p className="banner__text">{text(`${key}.text`)}</p>
      {kind === 'failure' ? (
        <p className="banner__help">
          {text
            .parts(`${status === 'held' ? 'form.held' : 'form.failure'}.help`)
            .map((part, index) => (typeof part === 'string' ? part : <Fragment key={index}>{link(part.slot)}</Fragment>))}
        </p>
      ) : null}
    </div>
  );
}

interface SendOutcomeProps {
  form: 'contact' | 'partner';
  status: string;
  direct: DirectContact;
  mailBody: () => string[];
}

/** The company's own address and number, for when a form cannot be sent, and its privacy notice. */
export interface DirectContact {
  readonly email: string;
  readonly phone: string;
  /** The number's `tel:` link, as the rest of the site builds it (src/data/company.yaml). */
  readonly phoneHref: string;
  readonly privacyHref: string;
}

/** Beside the submit button: what the answers are for, and the privacy notice. */
export function PrivacyNote({ href }: { href: string }) {
  const text = useFormText();
  return (
    <p className="form-privacy">
      {text('form.privacy.note')} <a href={href}>{text('form.privacy.link')}</a>
    </p>
  );
}

/** The honeypot: invisible to people and assistive technology, out of the tab order. */
export function Honeypot({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const text = useFormText();
  return (
    <div className="visually-hidden" aria-hidden="true">
      <label htmlFor={`hp-${HONEYPOT_FIELD}`}>{text('form.honeypot')}</label>
      <input
        id={`hp-${HONEYPOT_FIELD}`}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
