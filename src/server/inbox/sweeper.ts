/**
 * A server process's hourly round: the digests, then the erasure of old held leads (./held-digest.ts). One
 * round at a time; `stop()` waits for the round under way, so the server closes the database after it.
 */
import type { App } from '../ops/app.ts';
import type { MailTransport } from '../mail/outbox.ts';
import { SWEEP_EVERY_MS, sendHeldDigest, sweepHeld } from './held-digest.ts';
import { sendMorningDigests, type MorningOutcome } from './morning-digest.ts';

export class Sweeper {
  readonly #app: Pick<App, 'config' | 'stores' | 'log' | 'metrics'>;
  readonly #transport: MailTransport | undefined;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;
  /** Refusals past a network's budget, as this process counted them, already told in a digest. */
  #refusalsTold = 0;

  /** `transport` is the caller's to close. */
  constructor(
    app: Pick<App, 'config' | 'stores' | 'log' | 'metrics'>,
    transport: MailTransport | undefined,
    now = () => new Date(),
  ) {
    this.#app = app;
    this.#transport = transport;
    this.#now = now;
  }

  start(): void {
    this.#timer = setInterval(() => void this.round(), SWEEP_EVERY_MS);
    this.#timer.unref();
    void this.round();
  }

  /** Resolves when the round is over (a round already under way is joined). Never rejects. */
  round(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#running ??= this.#round().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  async #round(): Promise<void> {
    if (this.#transport) {
      await this.#heldDigest(this.#transport);
      await this.#morningDigests(this.#transport);
    }
    const { stores, config, log } = this.#app;
    await sweepHeld(stores, config, this.#now()).then(
      (gone) => {
        if (gone.leads > 0)
          log.info(
            { event: 'held.purged', leads: gone.leads },
            `Erased ${gone.leads} spam or held lead${gone.leads === 1 ? '' : 's'} older than ${config.proof.heldPurgeDays} days`,
          );
      },
      (error: unknown) => log.error({ event: 'store.error', err: error }, 'Could not purge old held leads'),
    );
  }

  async #heldDigest(transport: MailTransport): Promise<void> {
    const { stores, config, log, metrics } = this.#app;
    try {
      const refused = (await metrics.leadsRefused.get()).values
        .filter((value) => value.labels['reason'] === 'overBudget')
        .reduce((sum, value) => sum + value.value, 0);
      const outcome = await sendHeldDigest(stores.held, config, transport, this.#now(), refused - this.#refusalsTold);
      if (outcome === 'sent') {
        this.#refusalsTold = refused;
        metrics.heldDigests.inc({ outcome: 'sent' });
        log.info({ event: 'held.digest' }, 'Sent the daily digest of held leads');
      }
    } catch (error) {
      metrics.heldDigests.inc({ outcome: 'failed' });
      log.error(
        { event: 'held.digest.failed', err: error },
        'Could not send the daily digest of held leads (tried again within the hour)',
      );
    }
  }

  async #morningDigests(transport: MailTransport): Promise<void> {
    const { stores, config, log, metrics } = this.#app;
    let morning: MorningOutcome;
    try {
      morning = await sendMorningDigests(stores, config, transport, this.#now());
    } catch (error) {
      log.error(
        { event: 'morning.digest.failed', err: error },
        'Could not read the morning digests (tried again within the hour)',
      );
      return;
    }
    for (const outcome of ['sent', 'quiet', 'failed'] as const)
      if (morning[outcome].length > 0) metrics.morningDigests.inc({ outcome }, morning[outcome].length);
    if (morning.sent.length > 0) log.info({ event: 'morning.digest', sent: morning.sent.length }, 'Sent the morning digests');
    if (morning.failed.length > 0)
      log.error(
        { event: 'morning.digest.failed', failed: morning.failed.length },
        'Could not send some morning digests (tried again within the hour)',
      );
  }
}
