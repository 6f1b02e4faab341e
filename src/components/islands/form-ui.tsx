/**
 * Accessible building blocks of the two form islands: controls that name their own error in text (WCAG 3.3.1), each
 * drawn from its field's entry in the form's table (form-frame.tsx: what surrounds them). Rendered on the server too, so
 * the forms work as plain HTML forms without JavaScript.
 */
import { memo, type ChangeEvent, type FocusEvent, type ReactNode } from 'react';
import { useFormText } from './form-text';
import type { IssueCode } from '../../forms/rules';
import type { CountryList } from '../../forms/country-list';
import type { FieldSpec } from '../../forms/fields';

export type FieldErrors = Partial<Record<string, IssueCode>>;

function FieldError({ id, code }: { id: string | undefined; code: IssueCode | undefined }) {
  const text = useFormText();
  return code ? (
    <p id={id} className="field__error">
      {text(`form.issue.${code}`)}
    </p>
  ) : null;
}

/** "(required)" after a label or legend. */
function RequiredMark({ required }: { required: boolean | undefined }) {
  const text = useFormText();
  return required ? <span className="field__required"> ({text('form.required')})</span> : null;
}

/** What a control takes from its shell: its error state and the ids of its hint and error. */
interface Described {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldShellProps {
  id: string;
  label: string;
  required?: boolean | undefined;
  hint?: string | undefined;
  error?: IssueCode | undefined;
  className?: string | undefined;
  children: (described: Described) => ReactNode;
}

/** Label, control, hint and error message, wired together with ids. */
export function FieldShell({ id, label, required, hint, error, className, children }: FieldShellProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className, error ? 'field--invalid' : ''].filter(Boolean).join(' ')}>
      <label htmlFor={id}>
        {label}
        <RequiredMark required={required} />
      </label>
      {children({ 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} code={error} />
    </div>
  );
}

/** What every labelled control takes. */
interface ControlProps {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean | undefined;
  placeholder?: string | undefined;
  error?: IssueCode | undefined;
  className?: string | undefined;
}

interface TextFieldProps extends ControlProps {
  /** Called with the value when the field loses focus. */
  onBlur?: ((value: string) => void) | undefined;
  type?: 'text' | 'email' | 'url' | 'tel' | 'number' | undefined;
  autoComplete?: string | undefined;
  hint?: string | undefined;
  inputMode?: 'numeric' | 'email' | 'tel' | 'url' | 'text' | undefined;
  /** A text area of this many rows, for a longer answer. */
  rows?: number | undefined;
}

export function TextField({ id, name, label, value, onChange, onBlur, type = 'text', rows, ...rest }: TextFieldProps) {
  const { required, autoComplete, placeholder, hint, error, inputMode, className } = rest;
  const common = {
    id,
    name,
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
    onBlur: onBlur ? (event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => onBlur(event.target.value) : undefined,
    required,
    placeholder,
    // Free text may be typed in either script: the field takes the direction of what is in it
    // (only once it holds some: Chromium draws an empty dir="auto" field left to right).
    dir: type === 'text' && value ? 'auto' : undefined,
  };
  return (
    <FieldShell id={id} label={label} required={required} hint={hint} error={error} className={className}>
      {(described) =>
        rows ? (
          <textarea rows={rows} {...common} {...described} />
        ) : (
          <input
            type={type}
            autoComplete={autoComplete}
            min={type === 'number' ? 0 : undefined}
            step={type === 'number' ? 1 : undefined}
            inputMode={inputMode}
            {...common}
            {...described}
          />
        )
      }
    </FieldShell>
  );
}

interface ChoiceGroupProps {
  id: string;
  name: string;
  legend: string;
  options: readonly LabelledOption[];
  /** Radio: one value or ''. Checkbox: any number of values. */
  type: 'radio' | 'checkbox';
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  /** One answer must be chosen (radio): marked in the legend, and by the browser without JavaScript. */
  required?: boolean | undefined;
  error?: IssueCode | undefined;
  className?: string | undefined;
}

/** Radio buttons or checkboxes in a fieldset: side by side while short (Yes/No), one line each in a longer radio list. */
export function ChoiceGroup({
  id,
  name,
  legend,
  options,
  type,
  selected,
  onChange,
  required,
  error,
  className,
}: ChoiceGroupProps) {
  const errorId = error ? `${id}-error` : undefined;
  const stacked = type === 'radio' && options.length > 2;
  return (
    <fieldset
      className={['choice-group', stacked ? 'choice-group--stacked' : '', className, error ? 'field--invalid' : '']
        .filter(Boolean)
        .join(' ')}
      id={id}
      aria-describedby={errorId}
      tabIndex={-1}
    >
      <legend>
        {legend}
        <RequiredMark required={required} />
      </legend>
      <div className="choice-group__options">
        {options.map((option, index) => {
          const optionId = `${id}-${index}`;
          const checked = selected.includes(option.value);
          return (
            <label key={option.value} htmlFor={optionId} className="choice">
              <input
                id={optionId}
                type={type}
                name={name}
                value={option.value}
                checked={checked}
                required={required && type === 'radio' ? true : undefined}
                aria-invalid={error ? true : undefined}
                onChange={(event) => {
                  if (type === 'radio') onChange([option.value]);
                  else onChange(event.target.checked ? [...selected, option.value] : selected.filter((v) => v !== option.value));
                }}
              />
              <span>{option.label}</span>
            </label>
          );
        })}
      </div>
      <FieldError id={errorId} code={error} />
    </fieldset>
  );
}

/** An answer offered in a list: what is sent, and what the visitor reads. */
export interface LabelledOption {
  readonly value: string;
  readonly label: string;
}

const optionElements = (options: readonly LabelledOption[], prefix = '') =>
  options.map((option) => (
    <option key={`${prefix}${option.value}`} value={option.value}>
      {option.label}
    </option>
  ));

const INPUT_TYPES = { email: 'email', tel: 'tel', url: 'url', count: 'number' } as const;

interface FieldControlProps {
  id: string;
  name: string;
  spec: FieldSpec;
  label: string;
  value: string | readonly string[];
  error: IssueCode | undefined;
  onChange(name: string, value: string | string[]): void;
  /** A long answer's rows. */
  rows: number;
  placeholder?: string | undefined;
  /** Whether a follow-up question is asked now (undefined: always asked). */
  shown?: boolean | undefined;
  onBlur?: ((value: string) => void) | undefined;
  /** An offered answer's label, by its key. */
  optionLabel?: ((key: string) => string) | undefined;
  /** A country field's list, and the name of its part after the preferred countries. */
  countries?: CountryList | undefined;
  countryAll?: string | undefined;
  /** Counts take the page's own digits too (Arabic-Indic): a text field with a numeric keyboard, as number fields refuse them. */
  localDigits?: boolean | undefined;
}

/**
 * One field, as its entry in its form's table (src/forms) describes it. Memoized: a key typed re-renders that field
 * alone, not the others.
 */
export const FieldControl = memo(function FieldControl(props: FieldControlProps) {
  const { id, name, spec, label, value, error, onChange, rows, placeholder, shown, onBlur } = props;
  const { optionLabel, countries, countryAll, localDigits } = props;
  const text = typeof value === 'string' ? value : '';
  const className = spec.wide ? 'site-form__wide' : undefined;
  const common = { id, name, error, required: spec.required === true, className };
  const options = (spec.options ?? []).map((option) => ({ value: option.value, label: optionLabel?.(option.key) ?? option.key }));
  const onText = (next: string) => onChange(name, next);
  const country = spec.kind === 'country';
  let control: ReactNode;
  if (spec.kind === 'checkboxes' || spec.kind === 'radio') {
    const many = spec.kind === 'checkboxes';
    control = (
      <ChoiceGroup
        {...common}
        legend={label}
        type={many ? 'checkbox' : 'radio'}
        options={options}
        selected={Array.isArray(value) ? value : text ? [text] : []}
        onChange={(selected) => onChange(name, many ? selected : (selected[0] ?? ''))}
      />
    );
  } else if (spec.kind === 'select' || country) {
    // Options offered first, before a separator: the visitor's likely countries.
    const preferred = country ? countries?.preferred : undefined;
    const listed = country ? (countries?.all ?? []) : options;
    control = (
      <FieldShell id={id} label={label} required={common.required} error={error}>
        {(described) => (
          <select
            id={id}
            name={name}
            value={text}
            onChange={(event) => onText(event.target.value)}
            required={common.required}
            autoComplete={spec.autocomplete}
            {...described}
          >
            <option value="">{placeholder ?? ''}</option>
            {preferred && preferred.length > 0 ? (
              <>
                {optionElements(preferred, 'preferred-')}
                <optgroup label={countryAll ?? ''}>{optionElements(listed)}</optgroup>
              </>
            ) : (
              optionElements(listed)
            )}
          </select>
        )}
      </FieldShell>
    );
  } else {
    const count = spec.kind === 'count';
    const type =
      spec.kind === 'email' || spec.kind === 'tel' || spec.kind === 'url' || (count && !localDigits)
        ? INPUT_TYPES[spec.kind]
        : 'text';
    control = (
      <TextField
        {...common}
        label={label}
        placeholder={placeholder}
        type={type}
        rows={spec.kind === 'longText' ? rows : undefined}
        value={text}
        onChange={onText}
        onBlur={onBlur}
        autoComplete={spec.autocomplete}
        inputMode={count ? 'numeric' : undefined}
      />
    );
  }
  // A follow-up question (docs/requirements.md §8.4) is in the page from the start, shown while it is asked (and,
  // without JavaScript, by the stylesheet from the answer that asks it).
  if (shown === undefined) return control;
  return (
    <div className={['conditional', `conditional--${name}`, className].filter(Boolean).join(' ')} data-show={shown}>
      {control}
    </div>
  );
});
