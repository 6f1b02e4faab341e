/**
 * The partner application (docs/requirements.md §8, §9, §10, §11). Server-rendered as a plain form that posts without
 * JavaScript; hydrated, it follows every rule of the specification, keeps a draft on this device, never loses answers.
 */
import { useMemo, useRef, useState, type SubmitEvent, type ReactNode } from 'react';
import type { FormStrings } from '../../i18n';
import type { CountryList } from '../../forms/country-list';
import { MAX_FILES } from '../../forms/files';
import { mailLines } from '../../forms/fields';
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
import { withScheme } from '../../forms/rules';
import { isOwnReceiver, isSameOrigin, multipartBody, submitToEndpoint } from '../../forms/submit';
import { useProof, type ProofOptions } from './use-proof';
import { ErrorSummary, Honeypot, PrivacyNote, SendOutcome, type DirectContact } from './form-frame';
import { FieldControl } from './form-ui';
import { useFormStart } from './form-dom';
import { useCheckBeforeSending } from './use-check-before-sending';
import { usePartnerDraft } from './use-partner-draft';
import { FormTextContext, formText } from './form-text';
import { FilePicker, takeFiles } from './FilePicker';
import './forms.css';

/** `confirming`: sent and acknowledged, during the extra wait before the success banner (docs/requirements.md §10.1). */
type Status = 'idle' | 'submitting' | 'confirming' | 'success' | 'failure' | 'held';

const fieldId = (field: string) => `partner-${field}`;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface PartnerFormProps {
  /** Where the form posts (docs/requirements.md §10.3); the site's own receiver says the page's language in its query. */
  endpoint: string;
  direct: DirectContact;
  /** The form's words in the page's language (`formStrings('partner', locale)`). */
  strings: FormStrings<'partner'>;
  /** The countries, labelled and sorted for the page's language (src/forms/country-list.ts). */
  countries: CountryList;
  /** Counts take the page's own digits too (Arabic-Indic): a text field with a numeric keyboard, as number fields refuse them. */
  localDigits?: boolean;
  /** The proof of work: the challenge endpoint (none for an external endpoint) and the widget's words. */
  proof?: ProofOptions;
}

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
  const [status, setStatus] = useState<Status>('idle');
  const submitting = status === 'submitting' || status === 'confirming';
  const formRef = useRef<HTMLFormElement>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const hasAnswers =
    files.length > 0 ||
    Object.values(values).some((value) => (Array.isArray(value) ? value.length > 0 : String(value).trim() !== ''));
  // A restored draft or the browser's autofill starts the proof as typing does.
  const proof = useProof(formRef, proofOptions, hasAnswers);
  const { errors, check, clearError, clearErrors, focusField } = useCheckBeforeSending(formRef, fieldId, PARTNER_FIELD_ORDER);
  // The site's own receiver takes the CV files themselves; an external endpoint their names only.
  const sendsFiles = isOwnReceiver(endpoint);
  const maxFiles = sendsFiles ? MAX_FILES : Infinity;

  // Once, before paint, as the island mounts: the state starts from the saved draft and what the visitor already put
  // into the server's HTML, so nothing they see is lost.
  const { hydrated, honeypot, setHoneypot } = useFormStart(formRef, (form) => {
    adopt(form);
    // Files cannot be given to an input by a script, but the ones chosen before are still in it.
    const fileInput = fileInputRef.current;
    if (fileInput?.files && fileInput.files.length > 0) setFiles(takeFiles(t, fileInput, [], maxFiles));
  });

  const optionLabel = (key: string) => t(partnerOptionKey(key as PartnerOptionKey));
  const setField = <K extends keyof PartnerValues>(field: K, value: PartnerValues[K]) => {
    keepAnswer(field, value);
    clearError(field);
  };

  /** "globaq.com" becomes "https://globaq.com" when the visitor leaves the field. */
  const completeWebsite = (value: string) => {
    const website = withScheme(value);
    if (website !== value) setField('companyWebsite', website);
  };

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
    if (submitting) return;
    setStatus('idle'); // a new submit clears the previous banner (docs/requirements.md §10.1)

    // Enter in the website field sends without a blur: complete the address here too.
    const website = withScheme(values.companyWebsite);
    if (website !== values.companyWebsite) {
      const input = formRef.current?.querySelector<HTMLInputElement>(`#${fieldId('companyWebsite')}`);
      if (input) input.value = website;
      setField('companyWebsite', website);
    }
    const current = { ...values, companyWebsite: website };
    const missing = missingPartnerFields(current);
    const names = files.map((file) => file.name);
    const body = check({
      missing,
      alertText: `${t('partner.alert.required')} ${missing.map(labelOf).join(t('form.listSeparator'))}`,
      parse: () => partnerSchema.safeParse(buildPartnerPayload(current, names)),
      honeypot,
    });
    if (!body) return;
    setStatus('submitting');
    // A solution still being worked out is waited for a moment only; without one the server holds the lead.
    const altcha = await proof.take();
    const proven = altcha ? { ...body, altcha } : body;
    const sent =
      sendsFiles && isSameOrigin(endpoint, window.location.href) ? multipartBody(proven, 'uploadedFiles', files) : proven;
    const result = await submitToEndpoint(endpoint, sent, { pageUrl: window.location.href });
    if (result.ok) proof.renew();
    // Not stored, or stored but held for review: the answers and files stay, to send again or to mail.
    if (!result.ok || result.review) {
      setStatus(result.ok ? 'held' : 'failure');
      return;
    }
    setStatus('confirming');
    await wait(PARTNER_SUCCESS_DELAY_MS);
    resetAnswers();
    setStatus('success');
  }

  /** On a shared computer the next visitor must be able to wipe what the last one left. */
  function clearAnswers() {
    if (!window.confirm(t('partner.draft.clearConfirm'))) return;
    resetAnswers();
    setStatus('idle');
    focusField(PARTNER_FIELD_ORDER[0] ?? 'name');
  }

  const clearButton = (
    <button type="button" className="form-note__action" onClick={clearAnswers}>
      {t('partner.draft.clear')}
    </button>
  );

  function renderField(field: PartnerField): ReactNode {
    if (field === 'uploadedFiles')
      return (
        <FilePicker
          key={field}
          id={fieldId(field)}
          label={labelOf(field)}
          files={files}
          onFiles={setFiles}
          inputRef={fileInputRef}
          hydrated={hydrated}
          sendsFiles={sendsFiles}
          maxFiles={maxFiles}
          t={t}
        />
      );
    const placeholderKey = partnerPlaceholder(field, values);
    return (
      <FieldControl
        key={field}
        id={fieldId(field)}
        name={field}
        spec={partnerField(field)}
        label={labelOf(field)}
        value={values[field]}
        error={errors[field]}
        onChange={setField}
        rows={4}
        placeholder={placeholderKey ? t(placeholderKey) : undefined}
        shown={partnerField(field).askedWhen ? partnerAsks(field, values) : undefined}
        onBlur={field === 'companyWebsite' ? completeWebsite : undefined}
        optionLabel={optionLabel}
        countries={countries}
        countryAll={t('partner.countryAll')}
        localDigits={localDigits}
      />
    );
  }

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
        <SendOutcome form="partner" status={status} direct={direct} mailBody={() => mailLines(PARTNER_FORM, values, labelOf)} />
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
