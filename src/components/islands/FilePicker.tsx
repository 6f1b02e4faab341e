/**
 * The partner form's CV control (docs/requirements.md §9): the native file input, unseen but on top, under a face in the
 * page's language, and the files chosen, each with its remove button; the list is the form's state.
 */
import type { ChangeEvent, RefObject } from 'react';
import type { FormKey } from '../../i18n';
import { ACCEPT_ATTRIBUTE, checkFiles } from '../../forms/files';
import { isolate } from '../../i18n/template';
import { FieldShell } from './form-ui';
import type { FormText } from './form-text';

type PartnerText = FormText<FormKey<'partner'>>;

/**
 * The files chosen in `input` that pass the rules (docs/requirements.md §9.1, an alert for each refused one). They
 * replace the prior selection (docs/requirements.md §9.2), unless every one was refused. The input shows the same list.
 */
export function takeFiles(t: PartnerText, input: HTMLInputElement, prior: File[], maxFiles = Infinity): File[] {
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

interface FilePickerProps {
  id: string;
  label: string;
  files: File[];
  onFiles: (files: File[]) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  /** The island has started: the face says how many files are chosen. */
  hydrated: boolean;
  /** Whether the endpoint takes the files themselves (the site's own receiver) or their names only. */
  sendsFiles: boolean;
  maxFiles: number;
  t: PartnerText;
}

export function FilePicker({ id, label, files, onFiles, inputRef, hydrated, sendsFiles, maxFiles, t }: FilePickerProps) {
  const onChosen = (event: ChangeEvent<HTMLInputElement>) => onFiles(takeFiles(t, event.target, files, maxFiles));

  /** Takes one file out of the selection (and out of the input, so a plain post agrees). */
  const remove = (index: number, button: HTMLButtonElement) => {
    const kept = files.filter((_, i) => i !== index);
    const input = inputRef.current;
    if (input) showFiles(input, kept);
    onFiles(kept);
    // Focus stays in the list: on the file that took this one's place, else the one before, else the input.
    const list = button.closest('ul');
    const next = kept.length === 0 ? null : Math.min(index, kept.length - 1);
    requestAnimationFrame(() => {
      const target = next === null ? input : list?.querySelectorAll<HTMLButtonElement>('.selected-files__remove')[next];
      target?.focus();
    });
  };

  return (
    <FieldShell id={id} label={label} className="site-form__wide">
      {() => (
        <>
          {/* The native input, unseen but on top: it keeps its role, name, keyboard and screen
              reader behaviour, and works without JavaScript; the face below is what is seen,
              in the page's language. */}
          <div className="file-picker">
            <input
              ref={inputRef}
              id={id}
              className="file-picker__input"
              name="uploadedFiles"
              type="file"
              multiple
              accept={ACCEPT_ATTRIBUTE}
              onChange={onChosen}
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
          {(['hint', 'consent', sendsFiles ? 'sent' : 'notSent'] as const).map((key, i) => (
            <p key={key} id={`partner-files-${i < 2 ? key : 'note'}`} className="field__hint">
              {t(`partner.files.${key}`)}
            </p>
          ))}
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
                      onClick={(event) => remove(index, event.currentTarget)}
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
