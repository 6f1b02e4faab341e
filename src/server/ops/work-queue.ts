/**
 * A bounded queue of expensive work (password checks, Word file readings): `running` at once,
 * `waiting` more queued in order, the rest refused. A trusted place (a browser with a live device
 * cookie) is never refused: it waits ahead of the others.
 */
interface WorkLimits {
  readonly running: number;
  readonly waiting: number;
}

interface Place {
  /** Runs `work` once the place's turn comes, then gives the place back. */
  run<T>(work: () => Promise<T>): Promise<T>;
  leave(): void;
}

export class WorkQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  /** Trusted places waiting: served before the others. */
  readonly #first: (() => void)[] = [];
  readonly limits: WorkLimits;
  constructor(limits: WorkLimits) {
    this.limits = limits;
  }

  /**
   * A place in the queue, or undefined when it is full (never for a trusted one). The place is
   * given back by `run` (after `work`) or by `leave`: one of them, once.
   */
  enter(trusted = false): Place | undefined {
    const taken = this.#running + this.#waiting.length + this.#first.length;
    if (!trusted && taken >= this.limits.running + this.limits.waiting) return undefined;
    return this.#place(trusted);
  }

  /** Runs `work` in its turn, however many wait before it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#place(false).run(work);
  }

  #place(first: boolean): Place {
    const place =
      this.#running < this.limits.running
        ? ((this.#running += 1), Promise.resolve())
        : new Promise<void>((resolve) => (first ? this.#first : this.#waiting).push(resolve));
    const release = () => {
      const next = this.#first.shift() ?? this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    };
    const run = async <T>(work: () => Promise<T>): Promise<T> => {
      await place;
      try {
        return await work();
      } finally {
        release();
      }
    };
    return { run, leave: () => void place.then(release) };
  }
}
