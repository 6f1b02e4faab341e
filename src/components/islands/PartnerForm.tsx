/**
 * The partner application (docs/requirements.md §8, §9, §10, §11). Server-rendered as a plain
 * form that posts to the endpoint without JavaScript; hydrated, it follows every rule of the
 * specification, keeps the answers on this device while the visitor types, and never loses
 * them when sending fails.
 */
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type SubmitEvent,
  type ReactNode,
} from 'react';
import type { FormKey, FormStrings } from '../../i18n';
import type { CountryList } from '../../forms/country-list';
import { ACCEPT_ATTRIBUTE, MAX_FILES, checkFiles } from '../../forms/files';
import { mailLines, type FieldOption } from '../../forms/fields';
import {
  PARTNER_FIELD_ORDER,
  PARTNER_FORM,
  PARTNER_SECTIONS,
  PARTNER_SUCCESS_DELAY_MS,
  buildPartnerPayload,
  isPartnerField,
  missingPartnerFields,
  partnerAsks,
  partnerField,
  partnerLabelKey,
  partnerOptionKey,
  partnerPlaceholder,
  partnerSchema,
  sectionFields,
  type PartnerField,
  type PartnerOptionKey,
  type PartnerValues,
} from '../../forms/partner';
import { withScheme, type IssueCode } from '../../forms/rules';
import { isolate } from '../../i18n/template';
import { isOwnReceiver, isSameOrigin, multipartBody, submitToEndpoint } from '../../forms/submit';
import { useProof, type ProofOptions } from './use-proof';
import { mailtoHref } from '../../forms/mailto';
import {
  ChoiceGroup,
  type LabelledOption,
  ErrorSummary,
  FailureHelp,
  FieldShell,
  Honeypot,
  PrivacyNote,
  ResultBanner,
  SelectField,
  TextArea,
  TextField,
  type DirectContact,
} from './form-ui';
import { honeypotInPage, useAnswersKeptOnBack } from './form-dom';
import { useCheckBeforeSending } from './use-check-before-sending';
import { usePartnerDraft } from './use-partner-draft';
import { FormTextContext, formText, type FormText } from './form-text';
import './forms.css';

/** `confirming`: sent and acknowledged, during the extra wait before the success banner (docs/requirements.md §10.1). */
type Status = 'idle' | 'submitting' | 'confirming' | 'success' | 'failure' | 'held';

/**
 * What moves the submit state on: an attempt (`try`: a new submit clears the previous banner,
 * docs/requirements.md §10.1), the answers passing the checks (`send`), the endpoint's answer (`acknowledged`,
 * `failed`), the end of the extra wait (`confirmed`), the answers cleared (`cleared`).
 */
type SubmitAction = 'try' | 'send' | 'acknowledged' | 'failed' | 'held' | 'confirmed' | 'cleared';

const isBusy = (status: Status) => status === 'submitting' || status === 'confirming';

function submitReducer(_status: Status, action: SubmitAction): Status {
  switch (action) {
    case 'try':
    case 'cleared':
      return 'idle';
    case 'send':
      return 'submitting';
    case 'acknowledged':
      return 'confirming';
    case 'failed':
      return 'failure';
    case 'held':
      return 'held';
    case 'confirmed':
      return 'success';
  }
}

const fieldId = (field: string) => `partner-${field}`;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const INPUT_TYPES = { email: 'email', tel: 'tel', url: 'url', count: 'number' } as const;
type PartnerText = FormText<FormKey<'partner'>>;

/**
 * The files chosen in `input` that pass the rules (docs/requirements.md §9.1, an alert for each refused one).
 * docs/requirements.md §9.2: the valid files replace the prior selection. When every chosen file was refused,
 * there is nothing to replace it with: the prior selection stays. The input shows the same list.
 */
function takeFiles(t: PartnerText, input: HTMLInputElement, prior: File[], maxFiles = Infinity): File[] {
  const { accepted, rejected } = checkFiles(Array.from(input.files ?? []));
  const direction = input.closest('[dir]')?.getAttribute('dir') === 'rtl' ? 'rtl' : 'ltr';
  for (const rejection of rejected) {
    window.alert(
      t(rejection.reason === 'tooLarge' ? 'partner.files.tooLarge' : 'partner.files.invalidType', {
        file: isolate(rejection.file, direction),
      }),
    );
  }
  // The site's own receiver takes at most MAX_FILES files: more, and the prior selection stays.
  const tooMany = accepted.length > maxFiles;
  if (tooMany) window.alert(t('partner.files.tooMany', { max: maxFiles }));
  const kept = tooMany || (accepted.length === 0 && rejected.length > 0) ? prior : accepted;
  showFiles(input, kept);
  return kept;
}

/** The input holds the listed files, so a plain post sends what the visitor sees. */
function showFiles(input: HTMLInputElement, files: readonly File[]) {
  try {
    const transfer = new DataTransfer();
    for (const file of files) transfer.items.add(file);
    input.files = transfer.files;
  } catch {
    // Older browsers cannot set the list; the files listed are the ones that count.
  }
}

interface PartnerFormProps {
  /** Where the form posts (docs/requirements.md §10.3); the site's own receiver says the page's language in its query. */
  endpoint: string;
  direct: DirectContact;
  /** The form's words in the page's language (`formStrings('partner', locale)`). */
  strings: FormStrings<'partner'>;
  /** The countries, labelled and sorted for the page's language (src/forms/country-list.ts). */
  countries: CountryList;
  /**
   * The count fields take the page's own digits too (Arabic-Indic on the Arabic page): a text
   * field with a numeric keyboard, since the browsers' number field refuses them. The schema
   * checks the count either way.
   */
  localDigits?: boolean;
  /** The proof of work: the challenge endpoint (none for an external endpoint) and the widget's words. */
  proof?: Omit<ProofOptions, 'language'> & { readonly language?: string };
}

/** Options as the visitor reads them: each label looked up by its key. */
const labelled = (t: PartnerText, options: readonly FieldOption<PartnerOptionKey>[]): LabelledOption[] =>
  options.map((option) => ({ value: option.value, label: t(partnerOptionKey(option.key)) }));

interface PartnerControlProps {
  field: keyof PartnerValues;
  value: PartnerValues[keyof PartnerValues];
  error: IssueCode | undefined;
  placeholder: string | undefined;
  /** A follow-up question: whether it is asked now (undefined: always asked). */
  shown: boolean | undefined;
  onChange: <K extends keyof PartnerValues>(field: K, value: PartnerValues[K]) => void;
  onWebsiteBlur: (value: string) => void;
  t: PartnerText;
  countries: CountryList;
  localDigits: boolean;
}

/**
 * One field of the form. Memoized: a key typed into one field re-renders that field alone, not
 * the twenty others (their props stay the same).
 */
const PartnerControl = memo(function PartnerControl({
  field,
  value,
  error,
  placeholder,
  shown,
  onChange,
  onWebsiteBlur,
  t,
  countries,
  localDigits,
}: PartnerControlProps) {
  const spec = partnerField(field);
  const id = fieldId(field);
  const label = t(partnerLabelKey(field));
  const required = spec.required === true;
  const className = spec.wide ? 'site-form__wide' : undefined;
  const text = typeof value === 'string' ? value : '';
  let control: ReactNode;
  if (field === 'servicesTypes' || field === 'targetMarkets') {
    control = (
      <ChoiceGroup
        id={id}
        name={field}
        legend={label}
        type="checkbox"
        options={labelled(t, spec.options ?? [])}
        selected={Array.isArray(value) ? value : []}
        onChange={(selected) => onChange(field, selected)}
        error={error}
      />
    );
  } else if (spec.kind === 'radio') {
    control = (
      <ChoiceGroup
        id={id}
        name={field}
        legend={label}
        type="radio"
        options={labelled(t, spec.options ?? [])}
        selected={text ? [text] : []}
        onChange={(selected) => onChange(field, selected[0] ?? '')}
        required={required}
        error={error}
        className={className}
      />
    );
  } else if (spec.kind === 'select' || spec.kind === 'country') {
    const country = spec.kind === 'country';
    control = (
      <SelectField
        id={id}
        name={field}
        label={label}
        value={text}
        onChange={(v) => onChange(field, v)}
        placeholder={placeholder ?? ''}
        preferred={country ? countries.preferred : undefined}
        allLabel={country ? t('partner.countryAll') : undefined}
        options={country ? countries.all : labelled(t, spec.options ?? [])}
        required={required}
        autoComplete={spec.autocomplete}
        error={error}
      />
    );
  } else if (spec.kind === 'longText') {
    control = (
      <TextArea
        id={id}
        name={field}
        label={label}
        value={text}
        onChange={(v) => onChange(field, v)}
        rows={4}
        required={required}
        placeholder={placeholder}
        error={error}
        className={className}
      />
    );
  } else {
    const count = spec.kind === 'count';
    const type =
      spec.kind === 'email' || spec.kind === 'tel' || spec.kind === 'url' || (count && !localDigits)
        ? INPUT_TYPES[spec.kind]
        : 'text';
    control = (
      <TextField
        id={id}
        name={field}
        label={label}
        type={type}
        value={text}
        onChange={(v) => onChange(field, v)}
        onBlur={field === 'companyWebsite' ? onWebsiteBlur : undefined}
        required={required}
        autoComplete={spec.autocomplete}
        placeholder={placeholder}
        min={type === 'number' ? 0 : undefined}
        inputMode={count ? 'numeric' : undefined}
        error={error}
        className={className}
      />
    );
  }
  // A follow-up question (docs/requirements.md §8.4) is in the page from the start, shown while it is asked (and,
  // without JavaScript, by the stylesheet from the answer that asks it).
  if (shown === undefined) return control;
  return (
    <div className={['conditional', `conditional--${field}`, className].filter(Boolean).join(' ')} data-show={shown}>
      {control}
    </div>
  );
});

export default function PartnerForm({
  endpoint,
  direct,
  strings,
  countries,
  localDigits = false,
  proof: proofOptions,
}: PartnerFormProps) {
  const t = useMemo(() => formText(strings), [strings]);
  const labelOf = (field: PartnerField) => t(partnerLabelKey(field));
  /** The summary names fields by the schema's word for them: each has its label. */
  const summaryLabel = (field: string) => (isPartnerField(field) ? labelOf(field) : field);
  // Taken apart: each function is stable, the object is new with every answer.
  const { values, restored, adopt, setField: keepAnswer, clear: clearDraft } = usePartnerDraft();
  const [files, setFiles] = useState<File[]>([]);
  const [honeypot, setHoneypot] = useState('');
  const [status, dispatch] = useReducer(submitReducer, 'idle');
  const [hydrated, setHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const bannerRef = useRef<HTMLDivElement>(null);
  const proof = useProof(formRef, {
    challengeUrl: proofOptions?.challengeUrl,
    language: proofOptions?.language ?? 'en',
    strings: proofOptions?.strings,
  });
  const { errors, check, clearError, clearErrors, focusField } = useCheckBeforeSending(formRef, fieldId, PARTNER_FIELD_ORDER);
  useAnswersKeptOnBack(formRef);
  // The site's own receiver takes the CV files themselves; an external endpoint their names only.
  const sendsFiles = isOwnReceiver(endpoint);
  const maxFiles = sendsFiles ? MAX_FILES : Infinity;

  // Before paint, before any other render: the state starts from the saved draft and what the
  // visitor already put into the server's HTML, so nothing they see is lost.
  // Once, as the island mounts: later renders never adopt the page again.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form || hydrated) return;
    form.noValidate = true;
    adopt(form);
    const trap = honeypotInPage(form);
    if (trap) setHoneypot(trap);
    // Files cannot be given to an input by a script, but the ones chosen before are still in it.
    const fileInput = fileInputRef.current;
    if (fileInput?.files && fileInput.files.length > 0) setFiles(takeFiles(t, fileInput, [], maxFiles));
    setHydrated(true);
  }, [hydrated, adopt, t, maxFiles]);

  useEffect(() => {
    if (status === 'success' || status === 'failure' || status === 'held') bannerRef.current?.focus();
  }, [status]);

  const setField = <K extends keyof PartnerValues>(field: K, value: PartnerValues[K]) => {
    keepAnswer(field, value);
    clearError(field);
  };

  /** "globaq.com" becomes "https://globaq.com" when the visitor leaves the field. */
  const completeWebsite = (value: string) => {
    const website = withScheme(value);
    if (website !== value) setField('companyWebsite', website);
  };

  function onFilesChosen(event: ChangeEvent<HTMLInputElement>) {
    setFiles(takeFiles(t, event.target, files, maxFiles));
  }

  /** Every answer and file gone, here and in the draft: after a send, and on the visitor's demand. */
  function resetAnswers() {
    clearDraft();
    setFiles([]);
    setHoneypot('');
    clearErrors();
    if (fileInputRef.current) fileInputRef.current.value = '';
  }

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy(status)) return;
    dispatch('try');

    // Enter in the website field sends without a blur: complete the address here too.
    const website = withScheme(values.companyWebsite);
    if (website !== values.companyWebsite) {
      const input = formRef.current?.querySelector<HTMLInputElement>(`#${fieldId('companyWebsite')}`);
      if (input) input.value = website;
      setField('companyWebsite', website);
    }
    const current = { ...values, companyWebsite: website };
    const missing = missingPartnerFields(current);
    const body = check({
      missing,
      alertText: `${t('partner.alert.required')} ${missing.map(labelOf).join(t('form.listSeparator'))}`,
      parse: () =>
        partnerSchema.safeParse(
          buildPartnerPayload(
            current,
            files.map((file) => file.name),
          ),
        ),
      honeypot,
    });
    if (!body) return;
    dispatch('send');
    // A solution still being worked out is waited for a moment only; without one the server holds the lead.
    const altcha = await proof.take();
    const proven = altcha ? { ...body, altcha } : body;
    const sent =
      sendsFiles && isSameOrigin(endpoint, window.location.href) ? multipartBody(proven, 'uploadedFiles', files) : proven;
    const result = await submitToEndpoint(endpoint, sent, { pageUrl: window.location.href });
    if (!result.ok) {
      dispatch('failed');
      return;
    }
    if (result.review) {
      // Stored, but held for review: the answers and files stay, to send again or to mail.
      proof.renew();
      dispatch('held');
      return;
    }
    dispatch('acknowledged');
    proof.renew();
    await wait(PARTNER_SUCCESS_DELAY_MS);
    resetAnswers();
    dispatch('confirmed');
  }

  /** On a shared computer the next visitor must be able to wipe what the last one left. */
  function clearAnswers() {
    if (!window.confirm(t('partner.draft.clearConfirm'))) return;
    resetAnswers();
    dispatch('cleared');
    focusField(PARTNER_FIELD_ORDER[0] ?? 'name');
  }

  const hasAnswers =
    files.length > 0 ||
    Object.values(values).some((value) => (Array.isArray(value) ? value.length > 0 : String(value).trim() !== ''));
  // A restored draft or the browser's autofill starts the proof as typing does.
  const { reach } = proof;
  useEffect(() => {
    if (hasAnswers) reach();
  }, [hasAnswers, reach]);
  const clearButton = (
    <button type="button" className="form-note__action" onClick={clearAnswers}>
      {t('partner.draft.clear')}
    </button>
  );

  function renderField(field: PartnerField): ReactNode {
    if (field === 'uploadedFiles') return renderFiles();
    const placeholderKey = partnerPlaceholder(field, values);
    return (
      <PartnerControl
        key={field}
        field={field}
        value={values[field]}
        error={errors[field]}
        placeholder={placeholderKey ? t(placeholderKey) : undefined}
        shown={partnerField(field).askedWhen ? partnerAsks(field, values) : undefined}
        onChange={setField}
        onWebsiteBlur={completeWebsite}
        t={t}
        countries={countries}
        localDigits={localDigits}
      />
    );
  }

  /** Takes one file out of the selection (and out of the input, so a plain post agrees). */
  function removeFile(index: number) {
    const kept = files.filter((_, i) => i !== index);
    const input = fileInputRef.current;
    if (input) showFiles(input, kept);
    setFiles(kept);
    // Focus stays in the list: on the file that took this one's place, else the one before, else the input.
    const next = kept.length === 0 ? null : Math.min(index, kept.length - 1);
    requestAnimationFrame(() => {
      const target =
        next === null ? input : formRef.current?.querySelectorAll<HTMLButtonElement>('.selected-files__remove')[next];
      target?.focus();
    });
  }

  function renderFiles(): ReactNode {
    return (
      <FieldShell key="uploadedFiles" id={fieldId('uploadedFiles')} label={labelOf('uploadedFiles')} className="site-form__wide">
        {() => (
          <>
            {/* The native input, unseen but on top: it keeps its role, name, keyboard and screen
                reader behaviour, and works without JavaScript; the face below is what is seen,
                in the page's language. */}
            <div className="file-picker">
              <input
                ref={fileInputRef}
                id={fieldId('uploadedFiles')}
                className="file-picker__input"
                name="uploadedFiles"
                type="file"
                multiple
                accept={ACCEPT_ATTRIBUTE}
                onChange={onFilesChosen}
                aria-describedby="partner-files-hint partner-files-consent partner-files-note"
              />
              <span className="file-picker__face" aria-hidden="true">
                <svg className="file-picker__icon" viewBox="0 0 24 24" width="20" height="20" focusable="false">
                  <path
                    d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M5 15v4h14v-4"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                    strokeLinejoin="round"
                  />
                </svg>
                {t('partner.files.choose')}
              </span>
              {hydrated ? (
                <span className="file-picker__status" aria-hidden="true">
                  {files.length === 0 ? t('partner.files.none') : t('partner.files.count', { count: files.length })}
                </span>
              ) : null}
            </div>
            <p id="partner-files-hint" className="field__hint">
              {t('partner.files.hint')}
            </p>
            <p id="partner-files-consent" className="field__hint">
              {t('partner.files.consent')}
            </p>
            <p id="partner-files-note" className="field__hint">
              {t(sendsFiles ? 'partner.files.sent' : 'partner.files.notSent')}
            </p>
            {files.length > 0 ? (
              <div className="selected-files" aria-live="polite">
                <p>{t('partner.files.selected')}</p>
                {/* The list follows the page's direction; each name keeps its own (a Latin
                    name on the Arabic page) and wraps in its box. */}
                <ul>
                  {files.map((file, index) => (
                    <li key={`${file.name}-${file.size}-${index}`}>
                      <bdi className="selected-files__name" dir="auto">
                        {file.name}
                      </bdi>
                      <button
                        type="button"
                        className="selected-files__remove"
                        aria-label={t('partner.files.remove', { file: file.name })}
                        onClick={() => removeFile(index)}
                      >
                        {t('partner.files.removeShort')}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </>
        )}
      </FieldShell>
    );
  }

  const submitting = isBusy(status);
  return (
    <FormTextContext.Provider value={t}>
      <form
        ref={formRef}
        className="site-form partner-form"
        method="post"
        action={endpoint}
        encType={sendsFiles ? 'multipart/form-data' : undefined}
        onSubmit={onSubmit}
        aria-labelledby="partner-form-title"
        data-hydrated={hydrated ? '' : undefined}
        data-status={status}
      >
        <h2 id="partner-form-title">{t('partner.formTitle')}</h2>
        {status === 'success' ? (
          <ResultBanner ref={bannerRef} kind="success" title={t('partner.success.title')} text={t('partner.success.text')} />
        ) : null}
        {status === 'failure' || status === 'held' ? (
          <ResultBanner
            ref={bannerRef}
            kind="failure"
            title={t(status === 'held' ? 'form.held.title' : 'partner.failure.title')}
            text={t(status === 'held' ? 'form.held.text' : 'partner.failure.text')}
          >
            <FailureHelp
              direct={direct}
              mailto={mailtoHref(direct.email, t('partner.failure.mailSubject'), mailLines(PARTNER_FORM, values, labelOf))}
              help={status === 'held' ? 'form.held.help' : 'form.failure.help'}
            />
          </ResultBanner>
        ) : null}
        {restored ? (
          <div className="form-note">
            <p>{t('partner.draft.restored')}</p>
            {clearButton}
          </div>
        ) : null}
        <ErrorSummary errors={errors} labelFor={summaryLabel} idFor={fieldId} />
        {PARTNER_SECTIONS.map((section) => (
          <fieldset key={section} className="form-section">
            <legend>{t(`partner.section.${section}`)}</legend>
            <div className="site-form__grid">{sectionFields(section).map(renderField)}</div>
          </fieldset>
        ))}
        <Honeypot value={honeypot} onChange={setHoneypot} />
        {proof.widget}
        <PrivacyNote href={direct.privacyHref} />
        <button className="button button--primary site-form__submit" type="submit" disabled={submitting}>
          {submitting ? t('partner.submitting') : t('partner.submit')}
        </button>
        {/* Below Send, never above it: appearing as the island starts, it must not move the button under a press. */}
        {hydrated ? (
          <div className="form-note">
            <p>{t('partner.draft.saved')}</p>
            {hasAnswers && !restored ? clearButton : null}
          </div>
        ) : null}
      </form>
    </FormTextContext.Provider>
  );
}
