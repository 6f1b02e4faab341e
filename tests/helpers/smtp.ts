/**
 * A real SMTP server on loopback for the notification tests (the `smtp-server` package): it
 * accepts every mail, without TLS or sign-in, and keeps each one as received and as parsed
 * (`mailparser`).
 */
import net from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), which decide who really gets the mail. */
  readonly recipients: string[];
  readonly raw: string;
  readonly parsed: ParsedMail;
}

export interface MailSink {
  readonly port: number;
  readonly url: string;
  readonly mails: ReceivedMail[];
  /** Mails whose data has arrived, accepted or still held (`delayMs`): a mail on its way. */
  readonly arrived: () => number;
  /** No client connected, and every mail that arrived is recorded (or refused): none is on its way. */
  readonly idle: () => boolean;
  /** Resolves once `count` mails arrived; rejects after `timeoutMs` saying how many did. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Stops listening and ends the connections still open at once (a client's pooled one too). */
  close(): Promise<void>;
}

/** A loopback port nothing listens on (yet). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface SmtpOptions {
  /** Each mail is accepted only this long after its data arrived (a slow mail server); read for each mail, so a test may change it. */
  delayMs?: number;
}

export async function startSmtp(port = 0, options: SmtpOptions = {}): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  let arrived = 0;
  let settled = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Closing does not wait for clients to leave (smtp-server's default waits 30 s for a client
    // that keeps its connection, as the server's pooled transport does).
    closeTimeout: 1,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        arrived += 1;
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            const accept = () => {
              mails.push({ recipients: session.envelope.rcptTo.map((r) => r.address), raw, parsed });
              settled += 1;
              for (const wake of waiters.splice(0)) wake();
              callback();
            };
            if (options.delayMs) setTimeout(accept, options.delayMs);
            else accept();
          })
          .catch((error: Error) => {
            settled += 1;
            callback(error);
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as net.AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    arrived: () => arrived,
    idle: () => server.connections.size === 0 && settled === arrived,
    waitFor(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${mails.length} of ${count} mails arrived within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (mails.length >= count) {
            clearTimeout(timer);
            resolve(mails.slice());
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
