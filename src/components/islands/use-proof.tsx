/**
 * The forms' proof of work (ALTCHA, self-hosted: src/server/proof.ts issues and checks it).
 *
 * - Nothing of ALTCHA loads before the visitor reaches a form field: the island itself starts on
 *   intent (client:intent), and the widget's script is imported on the first focus or press
 *   inside the form (at once when the focus is already there). Solving starts then, in a worker,
 *   while the visitor fills the form.
 * - Sending never waits long for it: a finished form waits at most PROOF_WAIT_MS for a solution
 *   still being worked out, then goes without one, and the server holds the lead for review
 *   (stored, never dropped; staff release it). A lead is never lost to a slow solve, and a visitor
 *   on a fast device never notices the wait.
 * - An external endpoint (a spreadsheet script) gets no widget: no server of ours would check it.
 */
import { createElement, useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/** How long a send waits for a solution still being worked out before it goes without one. */
export const PROOF_WAIT_MS = 2000;

export interface ProofOptions {
  /** The challenge endpoint (the site's own `/api/challenge`); undefined: no widget. */
  readonly challengeUrl: string | undefined;
  /** The page's language, and the widget's words in it (undefined: its own English). */
  readonly language: string;
  readonly strings?: Readonly<Record<string, string>> | undefined;
}

interface Proof {
  /** The widget, once the visitor has reached the form (null before, and without a challenge endpoint). */
  readonly widget: ReactNode;
  /** The solution to send, waiting at most `maxWaitMs` for one being worked out; undefined without. */
  take(maxWaitMs?: number): Promise<string | undefined>;
  /** After a successful send: a new solution for the next message (each is accepted once). */
  renew(): void;
}

interface AltchaElement extends HTMLElement {
  reset?: () => void;
  verify?: () => Promise<void>;
}

export function useProof(formRef: RefObject<HTMLFormElement | null>, options: ProofOptions): Proof {
  const { challengeUrl, language, strings } = options;
  const [reached, setReached] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const payload = useRef<string | undefined>(undefined);
  const waiting = useRef<((value: string | undefined) => void)[]>([]);
  const element = useRef<AltchaElement | null>(null);

  // The first focus or press inside the form; at once when the focus is already there (the
  // island was woken by it).
  useEffect(() => {
    const form = formRef.current;
    if (!form || !challengeUrl) return;
    if (form.contains(document.activeElement)) {
      setReached(true);
      return;
    }
    const reach = () => setReached(true);
    form.addEventListener('focusin', reach, { once: true });
    form.addEventListener('pointerdown', reach, { once: true });
    return () => {
      form.removeEventListener('focusin', reach);
      form.removeEventListener('pointerdown', reach);
    };
  }, [formRef, challengeUrl]);

  useEffect(() => {
    if (!reached) return;
    let cancelled = false;
    void import('./altcha-widget').then(({ registerStrings }) => {
      if (cancelled) return;
      registerStrings(language, strings);
      // Rendered once defined and worded: it starts solving as it connects (auto="onload").
      setLoaded(true);
    });
    return () => {
      cancelled = true;
    };
  }, [reached, language, strings]);

  const attach = useCallback((node: AltchaElement | null) => {
    const previous = element.current;
    if (previous === node) return;
    element.current = node;
    if (!node) return;
    node.addEventListener('statechange', (event) => {
      const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      if (detail.state === 'verified' && detail.payload) {
        payload.current = detail.payload;
        for (const resolve of waiting.current.splice(0)) resolve(detail.payload);
      } else if (detail.state !== 'verified') {
        payload.current = undefined;
      }
    });
  }, []);

  const take = useCallback((maxWaitMs = PROOF_WAIT_MS) => {
    if (payload.current || !challengeUrl || !reached) return Promise.resolve(payload.current);
    return new Promise<string | undefined>((resolve) => {
      const done = (value: string | undefined) => {
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiting.current = waiting.current.filter((entry) => entry !== done);
        resolve(undefined);
      }, maxWaitMs);
      waiting.current.push(done);
    });
  }, [challengeUrl, reached]);

  const renew = useCallback(() => {
    payload.current = undefined;
    const node = element.current;
    node?.reset?.();
    void node?.verify?.();
  }, []);

  const widget = loaded && challengeUrl
    ? createElement('altcha-widget', {
        ref: attach,
        challenge: challengeUrl,
        auto: 'onload',
        language,
        name: 'altcha',
        // No attribution link to a third party, no logo: the label says what it is.
        configuration: JSON.stringify({ hideFooter: true, hideLogo: true }),
        'data-testid': 'proof-widget',
      })
    : null;

  return { widget, take, renew };
}
