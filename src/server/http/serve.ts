/**
 * The site's own server and the process's composition root (../ops/app.ts): the build's files
 * (sirv), the URL rules of ./routing.ts, the probes, and Astro's Node handler for the on-demand
 * routes, each request given the application object. Reads HOST, PORT (0: any free port) and the
 * settings, checked with the database before it listens. Run after `astro build`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { pickEncoding, resolveRoute } from './routing.ts';
import { mergeCsp, securityHeadersFor } from './security-headers.ts';
import { TrustedProxies, clientAddressOf } from './client-address.ts';
import { purgeBefore } from '../inbox/held-digest.ts';
import { Sweeper } from '../inbox/sweeper.ts';
import { firstAnswerSeconds } from '../inbox/timely.ts';
import { OutboxWorker, smtpTransport } from '../mail/outbox.ts';
import { signInSummary } from '../inbox/two-step.ts';
import { buildApp, type App } from '../ops/app.ts';
import { mayReadDetails, openProbe, readiness, type Probe } from '../ops/health.ts';
import { holdServerPidFile } from '../ops/backup.ts';
import { loadSettingsFile } from '../ops/settings-file.ts';
import { REQUEST_ID_HEADER, acceptedRequestId, newRequestId } from '../ops/request-id.ts';
import { attachmentsDir } from '../store/sqlite/sqlite-store.ts';
import { isUuid } from '../store/schema.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const clientDir = path.join(root, 'dist', 'client');
const entry = path.join(root, 'dist', 'server', 'entry.mjs');

/** Every file under dir, as URL paths ("/AboutUs.html"). */
function listFiles(dir: string): Set<string> {
  const files = fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((d) => !d.isDirectory());
  return new Set(files.map((d) => `/${path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/')}`));
}

/** The server with what SIGTERM uses: whether it is stopping, and its requests in flight. */
type SiteServer = http.Server & { stopping: boolean; readonly inFlight: Set<ServerResponse> };

const readinessOf = (app: App, probe: Probe) =>
  readiness(probe, {
    pendingMaxMs: app.settings.pendingMaxMs,
    notificationsOn: Boolean(app.config.notifications),
    heldPurgeDays: app.config.proof.heldPurgeDays,
    minFreeDiskBytes: app.config.minFreeDiskBytes,
    signIn: signInSummary(app.twoStep),
  });

/** Checks the settings and the database, then listens; prints the address (the real port when PORT=0). */
export async function startServer(): Promise<http.Server> {
  // Fails fast, before any visitor finds out: a bad setting or database stops the server at start.
  let app: App;
  try {
    // Before any setting is read: the file, when told, is where HOST and PORT may be too.
    loadSettingsFile(process.argv.slice(2));
    app = buildApp();
    await app.stores.ready;
  } catch (error) {
    // On standard error, as plain text: a setting the logger itself reads (LOG_LEVEL) may be the one at fault.
    console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { config, settings, log, metrics, stores } = app;
  // `restore` refuses a database a live server has open.
  if (!config.databaseUrl) holdServerPidFile(config.dbPath);
  const probe = openProbe(stores, config.databaseUrl ? undefined : attachmentsDir(config.dbPath));
  metrics.pending = () => probe.pending();
  metrics.held = () => probe.held(purgeBefore(config, new Date()));
  metrics.firstAnswers = async () => firstAnswerSeconds(await stores.inbox.firstAnswers());
  metrics.readiness = async () =>
    Object.fromEntries(Object.entries((await readinessOf(app, probe)).checks).map(([name, check]) => [name, check.ok]));
  const server = await createServer(app, probe);
  const host = process.env['HOST'] || '127.0.0.1';
  const port = Number(process.env['PORT'] || 4321);
  await new Promise((resolve) => server.listen(port, host, () => resolve(undefined)));
  const address = server.address();
  const shown = host.includes(':') ? `[${host}]` : host;
  // One mail transport for the lead notifications and the digests, closed after both have stopped.
  const transport = config.notifications
    ? smtpTransport(config.notifications.smtpUrl, config.notifications.requireTls)
    : undefined;
  const sweeper = new Sweeper(app, transport);
  sweeper.start();
  log.info(`Submissions are stored in ${stores.where}`);
  // An inbox on the password alone is warned of at each start: it should not pass unseen.
  if (app.twoStep.key) log.info(`Staff inbox sign-in: ${signInSummary(app.twoStep)}`);
  else log.warn(`Staff inbox sign-in: ${signInSummary(app.twoStep)}. Set it as docs/deploy.md says.`);
  let outbox: OutboxWorker | undefined;
  if (config.notifications && transport) {
    outbox = new OutboxWorker({ store: stores.outbox, config: config.notifications, transport, app });
    outbox.start();
    log.info(`Lead notifications are e-mailed to ${config.notifications.to.join(', ')}`);
    if (!config.siteUrl)
      log.warn(
        'SITE_URL is not set: lead e-mails carry no link to the staff inbox (set it to the site’s public address, as for the build).',
      );
  } else {
    log.info('Lead notifications are off: SMTP_URL is not set (leads are stored; staff read them with npm run submissions).');
  }
  // Stopping is handled before the address is printed: whoever waits for that line may stop the
  // server at once, and gets a clean stop (the round under way finished), not the default death.
  let stopping: Promise<void> | undefined;
  const stop = (signal: string) =>
    (stopping ??= (async () => {
      const started = Date.now();
      log.info(
        { event: 'stop.begin', signal, inFlight: server.inFlight.size },
        `${signal}: no new requests; finishing ${server.inFlight.size} in flight`,
      );
      notifySystemd(app, 'STOPPING=1');
      // Past the bound, the process goes anyway: systemd (TimeoutStopSec) would kill it later.
      setTimeout(() => {
        log.error(
          { event: 'stop.timeout', inFlight: server.inFlight.size },
          `Stopping took over ${settings.shutdownTimeoutMs / 1000} s: exiting with work unfinished`,
        );
        process.exit(1);
      }, settings.shutdownTimeoutMs).unref();
      server.stopping = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Answers already under way close their connection after them; idle connections close now.
      for (const res of server.inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      server.closeIdleConnections();
      await closed;
      // The send in progress finishes and is marked sent; nothing new is started.
      await outbox?.stop();
      await sweeper.stop();
      transport?.close();
      // After any commit under way.
      await app.close();
      log.info({ event: 'stop.done', durationMs: Date.now() - started }, 'Stopped cleanly');
      process.exit(0);
    })());
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  const listening = `http://${shown}:${typeof address === 'object' && address ? address.port : port}`;
  log.info({ event: 'start.listening', address: listening }, `Globaq site listening on ${listening}`);
  // Whatever LOG_LEVEL says, the address is printed: scripts and operators wait for this line.
  if (!log.isLevelEnabled('info'))
    process.stdout.write(
      `${JSON.stringify({ level: 'info', time: new Date().toISOString(), pid: process.pid, event: 'start.listening', address: listening, msg: `Globaq site listening on ${listening}` })}\n`,
    );
  notifySystemd(app, 'READY=1');
  return server;
}

/** Tells systemd (Type=notify) the server is ready or stopping, with systemd-notify (Node has no datagram Unix socket). */
function notifySystemd(app: App, state: string): void {
  if (!process.env['NOTIFY_SOCKET']) return;
  const result = spawnSync('systemd-notify', [`--pid=${process.pid}`, state], { stdio: 'ignore', timeout: 5000 });
  if (result.status !== 0)
    app.log.warn({ event: 'systemd.notify' }, `systemd-notify ${state} failed (is NotifyAccess=all set in the unit?)`);
}

/** Methods fetch's Request refuses: Astro would answer 500 and log a stack trace each time (a cheap way to flood the log). */
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Headers only a trusted proxy may send: from anyone else they are dropped before Astro reads them. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];

/** The status of an error page sirv sends (sirv itself answers 200). */
const pageStatus = new WeakMap<ServerResponse, number>();

/**
 * Keeps the server's whole set of security headers on every answer: a page rendered on demand
 * carries Astro's Content-Security-Policy header, which would replace the server's one (and
 * its frame-ancestors) instead of joining it. Gives an error page its status (pageStatus).
 */
function amendHead(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null && !Array.isArray(arg)) ?? {};
    for (const [name, value] of Object.entries(headers))
      if (name.toLowerCase() === 'content-security-policy') (headers as Record<string, unknown>)[name] = mergeCsp(String(value));
    const amended = status === 200 ? (pageStatus.get(this) ?? status) : status;
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, amended, ...rest);
  } as ServerResponse['writeHead'];
}

/** @astrojs/node's RequestHandler (dist/server/entry.mjs). */
type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: undefined,
  locals: { readonly app: App; readonly clientAddress: string },
) => void;

type RouteKind = 'health' | 'api' | 'admin' | 'asset' | 'page' | 'other';

function routeKind(pathname: string, files: ReadonlySet<string>): RouteKind {
  if (OPS_PATHS.has(pathname)) return 'health';
  if (pathname.startsWith('/api/')) return 'api';
  if (pathname === '/admin' || pathname.startsWith('/admin/')) return 'admin';
  if (pathname.startsWith('/_astro/') || (files.has(pathname) && !pathname.endsWith('.html'))) return 'asset';
  if (pathname === '/' || pathname.endsWith('/') || files.has(`${pathname}.html`) || files.has(pathname)) return 'page';
  return 'other';
}

/** The path as logged: one of the site's own (a built file, a route), never text a client made up. */
function loggedPath(pathname: string, kind: RouteKind): string | undefined {
  if (kind === 'page' || kind === 'asset' || kind === 'health') return pathname.slice(0, 200);
  if (kind === 'api' && /^\/api\/(contact|partner)$/.test(pathname)) return pathname;
  if (kind === 'admin' && /^\/admin(\/[A-Za-z0-9_-]+)*$/.test(pathname))
    return pathname
      .split('/')
      .map((segment) => (isUuid(segment) ? ':id' : segment))
      .join('/');
  return undefined;
}

/** Answered by the server itself, before any page: the probes and the metrics. */
const OPS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const NO_STORE = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' } as const;

async function answerOps(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  app: App,
  probe: Probe,
  stopping: boolean,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8', ...NO_STORE });
    res.end('Method not allowed.');
    return;
  }
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { 'Content-Type': type, ...NO_STORE });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const json = (status: number, body: object) => send(status, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`);
  const insider = mayReadDetails(req, app.settings.token);
  if (pathname === '/healthz') return send(200, 'text/plain; charset=utf-8', 'ok\n');
  if (pathname === '/metrics') {
    if (!insider) return send(404, 'text/plain; charset=utf-8', 'Not found.\n');
    const registry = app.metrics.registry;
    return send(200, registry.contentType, await registry.metrics());
  }
  // /readyz
  if (stopping) return json(503, { status: 'unavailable', ...(insider ? { failing: ['stopping'] } : {}) });
  const { ready, checks } = await readinessOf(app, probe);
  if (ready) return json(200, insider ? { status: 'ready', checks } : { status: 'ready' });
  const failing = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name]) => name);
  app.log.warn({ event: 'ready.failing', failing }, `Not ready: ${failing.join(', ')}`);
  json(503, insider ? { status: 'unavailable', failing, checks } : { status: 'unavailable' });
}

async function createServer(app: App, probe: Probe): Promise<SiteServer> {
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const files = listFiles(clientDir);
  const behindHttps = process.env['BEHIND_HTTPS'] === 'true';
  const trusted = new TrustedProxies(app.config.trustedProxies);
  const { requestIds, log } = app;
  const durations = app.metrics.requestDuration;
  const inFlight = new Set<ServerResponse>();
  // The build's files at their exact path (sirv lists dist/client once, at start), each as its
  // twin when the browser takes Brotli or gzip; hashed build assets never change, pages are revalidated.
  const statics = sirv(clientDir, {
    brotli: true,
    gzip: true,
    etag: true,
    setHeaders: (res, pathname) => {
      const immutable = pathname.startsWith('/_astro/');
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0');
      // sirv's types (mrmime) have none for .ico.
      if (pathname.endsWith('.ico')) res.setHeader('Content-Type', 'image/x-icon');
    },
  });

  const httpServer = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const peer = req.socket?.remoteAddress ?? '';
    const requestId = (trusted.has(peer) && acceptedRequestId(req.headers['x-request-id'])) || newRequestId();
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const url = req.url ?? '/';
    const rawPath = url.split('?', 1)[0] ?? '';
    const query = url.slice(rawPath.length);
    let pathname: string | undefined;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      // A malformed escape: answered 400, logged without a path.
    }
    const kind = routeKind(pathname ?? '', files);
    inFlight.add(res);
    if (server.stopping) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.statusCode;
      durations.observe({ kind, status: `${Math.floor(status / 100)}xx` }, seconds);
      // Answers to a flood (too many requests) are summed a minute at a time, not a line each.
      if (status === 429) app.refusals.refused('request.limited', { method: req.method, route: kind });
      else
        requestIds.run(requestId, () =>
          log.info(
            {
              event: 'request',
              method: req.method,
              route: kind,
              path: loggedPath(pathname ?? '', kind),
              status,
              durationMs: Math.round(seconds * 10_000) / 10,
              aborted: !res.writableFinished || undefined,
            },
            'request',
          ),
        );
      if (server.stopping) server.closeIdleConnections();
    });
    requestIds.run(requestId, () => answer(req, res, peer, rawPath, query, pathname));
  });
  const server: SiteServer = Object.assign(httpServer, { stopping: false, inFlight });
  // An idle connection stays open longer than its client keeps it (nginx's upstream keepalive_timeout
  // is 60 s, docs/deploy.md; a client reads "timeout=65" and closes first): with Node's 5 s, nginx
  // or a busy client could send a post on a connection the server was closing, and lose it.
  server.keepAliveTimeout = 65_000;

  function answer(req: IncomingMessage, res: ServerResponse, peer: string, rawPath: string, query: string, pathname?: string) {
    const headers = securityHeadersFor({
      behindHttps: behindHttps || Boolean(req.socket && 'encrypted' in req.socket && req.socket.encrypted),
    });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    amendHead(res);
    if (REFUSED_METHODS.has(req.method ?? '')) {
      res.writeHead(405, { Allow: 'GET, HEAD, POST, OPTIONS', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed.');
      return;
    }
    if (OPS_PATHS.has(rawPath)) {
      answerOps(req, res, rawPath, app, probe, server.stopping).catch((error: unknown) => {
        log.error({ event: 'ops.error', err: error }, 'The health or metrics answer failed');
        if (!res.headersSent) res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', ...NO_STORE });
        res.end('{"status":"unavailable"}\n');
      });
      return;
    }
    const client = clientAddressOf(peer, req.headers['x-forwarded-for'], trusted);
    if (trusted.has(peer)) {
      // Astro takes the first address of the list: give it the one resolved from the right.
      if (req.headers['x-forwarded-for'] !== undefined) req.headers['x-forwarded-for'] = client;
    } else {
      for (const name of FORWARDED_HEADERS) delete req.headers[name];
    }
    if (pathname === undefined) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad request: malformed URL.');
      return;
    }
    const route = resolveRoute(pathname, files);
    if (route.kind === 'redirect') {
      res.writeHead(301, { Location: route.location + query });
      res.end();
      return;
    }
    if (route.kind === 'rewrite') req.url = route.pathname + query;
    const astro = () => handler(req, res, undefined, { app, clientAddress: client });
    // Astro redirects a trailing slash away (sirv would answer /AboutUs/ with the page).
    if ((req.method !== 'GET' && req.method !== 'HEAD') || (pathname !== '/' && pathname.endsWith('/'))) return astro();
    if (route.kind === 'file') {
      req.url = route.file;
      pageStatus.set(res, route.status);
    }
    // sirv reads the header loosely ("br;q=0" would get Brotli): it is given the one coding chosen.
    const accepted = req.headers['accept-encoding'];
    req.headers['accept-encoding'] = pickEncoding(accepted) ?? 'identity';
    statics(req, res, () => {
      req.headers['accept-encoding'] = accepted;
      astro();
    });
  }
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await startServer();
}
