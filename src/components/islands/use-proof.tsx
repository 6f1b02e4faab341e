/**
 * The forms' proof of work (ALTCHA, self-hosted: src/server/receiver/proof.ts issues and checks it).
 *
 * - Nothing of ALTCHA runs before the visitor reaches a form field: the island itself starts on
 *   intent (client:intent, which downloads the widget's script with the island's files without
 *   running it), and the widget's script is imported on the first focus or press
 *   inside the form (at once when the focus is already there), in a pause of their typing. Solving
 *   starts then, in a worker, while the visitor fills the form.
 * - Sending never waits long for it: a finished form waits at most PROOF_WAIT_MS for a solution
 *   still being worked out, then goes without one, and the server holds the lead for review
 *   (stored, never dropped; staff release it). A lead is never lost to a slow solve, and a visitor
 *   on a fast device never notices the wait.
 * - An external endpoint (a spreadsheet script) gets no widget: no server of ours would check it.
 */
import { afterTypingPause } from '../../lib/typing-pause';
import { createElement, useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';

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

/** The widget's script (a module of its own, fetched early by the island's directive). */
const loadWidget = () => import('./altcha-widget');

interface AltchaElement extends HTMLElement {
  reset?: () => void;
  verify?: () => Promise<void>;
}

interface Controller {
  /** The solution, once the widget has one. */
  payload: string | undefined;
  /** Whether the visitor has reached the form (the widget is coming or there). */
  reached: boolean;
  waiting: ((value: string | undefined) => void)[];
  element: AltchaElement | null;
}

/**
 * The widget, in a component of its own: reaching the form re-renders it alone, never the form
 * (a form re-rendered under the focus would move a radio group's place in the tab order).
 */
function ProofWidget({
  formRef,
  options,
  controllerRef,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  options: ProofOptions;
  controllerRef: RefObject<Controller>;
}) {
  const { challengeUrl, language, strings } = options;
  const [reached, setReached] = useState(false);
  const [loaded, setLoaded] = useState(false);

  // The first focus or press inside the form; at once when the focus is already there (the
  // island was woken by it).
  useEffect(() => {
    const form = formRef.current;
    if (!form || !challengeUrl) return;
    const reach = () => {
      controllerRef.current.reached = true;
      setReached(true);
    };
    if (form.contains(document.activeElement)) {
      reach();
      return;
    }
    form.addEventListener('focusin', reach, { once: true });
    form.addEventListener('pointerdown', reach, { once: true });
    return () => {
      form.removeEventListener('focusin', reach);
      form.removeEventListener('pointerdown', reach);
    };
  }, [formRef, challengeUrl, controllerRef]);

  useEffect(() => {
    if (!reached) return;
    let cancelled = false;
    // Its script runs in a pause of the visitor's typing, as the island's own start does.
    const cancelWait = afterTypingPause(() => {
      void loadWidget().then(({ registerStrings }) => {
        if (cancelled) return;
        registerStrings(language, strings);
        // Rendered once defined and worded: it starts solving as it connects (auto="onload").
        setLoaded(true);
      });
    });
    return () => {
      cancelled = true;
      cancelWait();
    };
  }, [reached, language, strings]);

  const attach = useCallback(
    (node: AltchaElement | null) => {
      const state = controllerRef.current;
      if (state.element === node) return;
      state.element = node;
      if (!node) return;
      node.addEventListener('statechange', (event) => {
        const detail = (event as CustomEvent<{ state: string; payload?: string }>).detail;
        if (detail.state === 'verified' && detail.payload) {
          state.payload = detail.payload;
          for (const resolve of state.waiting.splice(0)) resolve(detail.payload);
        } else if (detail.state !== 'verified') {
          state.payload = undefined;
        }
      });
    },
    [controllerRef],
  );

  if (!loaded || !challengeUrl) return null;
  // A custom element, made with createElement: `ref` is the callback above, not a ref read in render.
  // eslint-disable-next-line react-hooks/refs
  return createElement('altcha-widget', {
    ref: attach,
    challenge: challengeUrl,
    auto: 'onload',
    language,
    name: 'altcha',
    // No attribution link to a third party, no logo: the label says what it is. Never moves
    // the focus when it is done (by default it would take it from the field being typed in).
    // Its workers leave one core to the page: by default they take every core, and the keys the
    // visitor types while it solves wait behind them.
    configuration: JSON.stringify({
      hideFooter: true,
      hideLogo: true,
      disableAutoFocus: true,
      workers: Math.max(1, (navigator.hardwareConcurrency || 2) - 1),
    }),
  });
}

export function useProof(formRef: RefObject<HTMLFormElement | null>, options: ProofOptions): Proof {
  const controllerRef = useRef<Controller>({ payload: undefined, reached: false, waiting: [], element: null });
  const { challengeUrl, language, strings } = options;
  // One options object while they do not change: the widget re-renders only on its own state.
  const stable = useMemo(() => ({ challengeUrl, language, strings }), [challengeUrl, language, strings]);

  const take = useCallback(
    (maxWaitMs = PROOF_WAIT_MS) => {
      const state = controllerRef.current;
      if (state.payload || !challengeUrl || !state.reached) return Promise.resolve(state.payload);
      return new Promise<string | undefined>((resolve) => {
        const done = (value: string | undefined) => {
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          state.waiting = state.waiting.filter((entry) => entry !== done);
          resolve(undefined);
        }, maxWaitMs);
        state.waiting.push(done);
      });
    },
    [challengeUrl, controllerRef],
  );

  const renew = useCallback(() => {
    controllerRef.current.payload = undefined;
    const node = controllerRef.current.element;
    node?.reset?.();
    void node?.verify?.();
  }, [controllerRef]);

  // The widget's place is kept from the server's HTML on, its height reserved: the widget appears
  // when the visitor reaches the form, and the Send button below must not move under their press.
  const widget = useMemo(
    () =>
      stable.challengeUrl ? (
        <div className="proof-slot">
          <ProofWidget formRef={formRef} options={stable} controllerRef={controllerRef} />
        </div>
      ) : null,
    [formRef, stable, controllerRef],
  );
  return { widget, take, renew };
}
