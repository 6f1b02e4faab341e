/** The partner form's answers kept on this device while the visitor types, until sent or cleared. */
import { useEffect, useRef, useState } from 'react';
import { PARTNER_DRAFT_KEY, emptyPartner, restorePartnerDraft, type PartnerValues } from '../../forms/partner';
import { filledInPage } from './form-dom';

/** How long after the last change the draft is written. */
const DRAFT_SAVE_DELAY_MS = 400;

function saveDraft(values: PartnerValues) {
  try {
    window.localStorage.setItem(PARTNER_DRAFT_KEY, JSON.stringify(values));
  } catch {
    // Storage full or disabled: the form still works, only the draft is not kept.
  }
}

function readDraft(): string | null {
  try {
    return window.localStorage.getItem(PARTNER_DRAFT_KEY);
  } catch {
    return null; // Storage disabled: there is no draft.
  }
}

function clearDraft() {
  try {
    window.localStorage.removeItem(PARTNER_DRAFT_KEY);
  } catch {
    // Nothing to clear.
  }
}

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
    const draft = restorePartnerDraft(readDraft());
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
    clearDraft();
    setValues(emptyPartner());
    setRestored(false);
  };

  return { values, restored, adopt, setField, clear };
}
