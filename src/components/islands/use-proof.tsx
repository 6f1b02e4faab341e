/**
 * The forms' proof of work (ALTCHA, self-hosted: src/server/receiver/proof.ts issues and checks it). Nothing of it runs
 * before the visitor reaches a form field (first focus or press inside the form, or answers given by a draft or autofill:
 * `reach()`); then its script loads in a pause of their typing and solves in a worker while they fill the form. A send
 * waits at most PROOF_WAIT_MS for a solution, then goes without one and the server holds the lead for review; with one,
 * it waits out the challenge's signed `min` seconds, so the server never finds a person too fast. An external endpoint
 * gets no widget: no server of ours would check it.
 */
import { afterTypingPause } from '../../lib/typing-pause';
import { createElement, useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';

/** How long a send waits for a solution being worked out: a slow phone finishes, since a lead without one waits for review. */
export const PROOF_WAIT_MS = 15_000;

export interface ProofOptions {
  /** The challenge endpoint (the site's own `/api/challenge`); undefined: no widget. */
  readonly challengeUrl: string | undefined;
  /** The page's language (English when not given), and the widget's words in it (undefined: its own English). */
  readonly language?: string | undefined;
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

/** The seconds a solution's challenge asks the form to wait before sending (its signed `min`); 0 when unreadable. */
function minimumSeconds(payload: string): number {
  try {
    const parsed = JSON.parse(atob(payload)) as { challenge?: { parameters?: { data?: { min?: unknown } } } };
    const min = Number(parsed.challenge?.parameters?.data?.min);
    return Number.isFinite(min) && min > 0 ? Math.min(min, 60) : 0;
  } catch {
    return 0;
  }
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
  /** When the solution came (performance.now()). */
  solvedAt: number;
  /** Whether the visitor has reached the form (the widget is coming or there). */
  reached: boolean;
  /** Draws the widget once the form is reached (set by the widget's component when it mounts). */
  wake: (() => void) | undefined;
  waiting: ((value: string | undefined) => void)[];
  element: AltchaElement | null;
}

/** The widget apart: reaching the form re-renders it alone (a form re-rendered under focus moves a radio group's tab place). */
function ProofWidget({
  formRef,
  options,
  controllerRef,
}: {
  formRef: RefObject<HTMLFormElement | null>;
  options: ProofOptions & { readonly language: string };
  controllerRef: RefObject<Controller>;
}) {
  const { challengeUrl, language, strings } = options;
  const [reached, setReached] = useState(false);
  const [loaded, setLoaded] = useState(false);

  // The first focus or press inside the form; at once when the focus is already there.
  useEffect(() => {
    const form = formRef.current;
    if (!form || !challengeUrl) return;
    const reach = () => {
      controllerRef.current.reached = true;
      setReached(true);
    };
    controllerRef.current.wake = reach;
    if (controllerRef.current.reached || form.contains(document.activeElement)) {
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
      void loadWidget().then(async ({ registerStrings, stylesReady }) => {
        await stylesReady;
        if (cancelled) return;
        registerStrings(language, strings);
        // Rendered once defined, styled and worded: it starts solving as it connects (auto="onload").
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
          state.solvedAt = performance.now();
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

/** `hasAnswers`: the form holds answers the visitor did not type here (a draft, autofill), which start the proof too. */
export function useProof(
  formRef: RefObject<HTMLFormElement | null>,
  options: ProofOptions | undefined,
  hasAnswers: boolean,
): Proof {
  const controllerRef = useRef<Controller>({
    payload: undefined,
    solvedAt: 0,
    reached: false,
    wake: undefined,
    waiting: [],
    element: null,
  });
  const { challengeUrl, language = 'en', strings } = options ?? {};
  // One options object while they do not change: the widget re-renders only on its own state.
  const stable = useMemo(() => ({ challengeUrl, language, strings }), [challengeUrl, language, strings]);

  const reach = useCallback(() => {
    const state = controllerRef.current;
    if (state.reached || !challengeUrl) return;
    state.reached = true;
    state.wake?.();
  }, [challengeUrl, controllerRef]);
  useEffect(() => {
    if (hasAnswers) reach();
  }, [hasAnswers, reach]);

  const take = useCallback(
    async (maxWaitMs = PROOF_WAIT_MS) => {
      const state = controllerRef.current;
      if (!challengeUrl) return undefined;
      reach();
      const payload =
        state.payload ??
        (await new Promise<string | undefined>((resolve) => {
          const done = (value: string | undefined) => {
            clearTimeout(timer);
            resolve(value);
          };
          const timer = setTimeout(() => {
            state.waiting = state.waiting.filter((entry) => entry !== done);
            resolve(undefined);
          }, maxWaitMs);
          state.waiting.push(done);
        }));
      const left = payload ? state.solvedAt + minimumSeconds(payload) * 1000 - performance.now() : 0;
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      return payload;
    },
    [challengeUrl, controllerRef, reach],
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
