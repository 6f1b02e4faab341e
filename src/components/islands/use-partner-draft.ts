/** The partner form's answers kept on this device while the visitor types, until sent or cleared. */
import { useEffect, useRef, useState } from 'react';
import { PARTNER_DRAFT_KEY, emptyPartner, restorePartnerDraft, type PartnerValues } from '../../forms/partner';
import { filledInPage } from './form-dom';

/** How long after the last change the draft is written. */
const DRAFT_SAVE_DELAY_MS = 400;

/** Does `use` with this device's storage; when it is full or disabled, nothing (the form works, without a draft). */
function withStorage<T>(use: (storage: Storage) => T): T | undefined {
  try {
    return use(window.localStorage);
  } catch {
    return undefined;
  }
}

const saveDraft = (values: PartnerValues) => withStorage((storage) => storage.setItem(PARTNER_DRAFT_KEY, JSON.stringify(values)));

export function usePartnerDraft() {
  const [values, setValues] = useState<PartnerValues>(emptyPartner);
  /** The answers came back from an earlier visit. */
  const [restored, setRestored] = useState(false);
  /** The visitor changed something since the start or the last clear: the draft follows. */
  const dirty = useRef(false);

  // Saved in a pause of the visitor's typing, not on every key (a key must cost the page as
  // little as it can), and at once when the page is hidden or left.
  useEffect(() => {
    if (!dirty.current) return;
    const save = () => saveDraft(values);
    const saveIfHidden = () => {
      if (document.visibilityState === 'hidden') save();
    };
    const timer = setTimeout(save, DRAFT_SAVE_DELAY_MS);
    window.addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', saveIfHidden);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pagehide', save);
      document.removeEventListener('visibilitychange', saveIfHidden);
    };
  }, [values]);

  /**
   * At hydration, before paint: the answers start from the saved draft and what the visitor already put into the page
   * (form-dom.ts). The page wins field by field (typed just now, and what the visitor sees; a checkbox group counts as
   * one field); fields empty on the page take the draft's. The result is the new draft.
   */
  const adopt = (form: HTMLFormElement) => {
    const draft = restorePartnerDraft(withStorage((storage) => storage.getItem(PARTNER_DRAFT_KEY)) ?? null);
    const typed = filledInPage(form, emptyPartner());
    const start = { ...(draft ?? emptyPartner()), ...typed };
    if (Object.keys(typed).length > 0) saveDraft(start);
    if (draft || Object.keys(typed).length > 0) setValues(start);
    if (draft) setRestored(true);
  };

  const setField = <K extends keyof PartnerValues>(field: K, value: PartnerValues[K]) => {
    dirty.current = true;
    setValues((current) => ({ ...current, [field]: value }));
  };

  /** Empty answers, and no draft left on this device. */
  const clear = () => {
    dirty.current = false;
    withStorage((storage) => storage.removeItem(PARTNER_DRAFT_KEY));
    setValues(emptyPartner());
    setRestored(false);
  };

  return { values, restored, adopt, setField, clear };
}
