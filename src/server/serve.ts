/**
 * The site's own server: Astro's standalone Node handler (prerendered pages, assets and the
 * on-demand routes, among them the form receiver under /api/), with the URL rules of
 * ./routing.ts in front. Reads HOST and PORT (PORT=0: any free port, printed), and the
 * receiver's SUBMISSIONS_* settings, which are checked, with the database, before it listens.
 * With SMTP_URL set, it also runs the outbox worker that e-mails each lead to staff (./outbox.ts).
 * Run after `astro build`; `npm start` builds first when needed.
 */
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveRoute } from './routing.ts';
import { mergeCsp, securityHeadersFor } from './security-headers.ts';
import { compressedFile, pickEncoding, staticFileFor } from './compression.ts';
import { receiverConfig, type ReceiverConfig } from './config.ts';
import { TrustedProxies, clientAddressOf, clientAddressStore } from './client-address.ts';
import { databaseWhere, openStores } from './database.ts';
import { OutboxWorker, smtpTransport } from './outbox.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const clientDir = path.join(root, 'dist', 'client');
const entry = path.join(root, 'dist', 'server', 'entry.mjs');

/** Every file under dir, as URL paths ("/AboutUs.html"). */
function listFiles(dir: string, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const dirent of fs.readdirSync(dir, { withFileTypes: true })) {
    const urlPath = `${prefix}/${dirent.name}`;
    if (dirent.isDirectory()) for (const f of listFiles(path.join(dir, dirent.name), urlPath)) out.add(f);
    else out.add(urlPath);
  }
  return out;
}

/**
 * Answers a GET or HEAD for a text file of the build compressed, when the browser accepts it.
 * Returns false (and sends nothing) otherwise, so the caller serves it as before.
 */
function sendCompressed(req: IncomingMessage, res: ServerResponse, file: string, status: number): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const encoding = pickEncoding(req.headers['accept-encoding']);
  const compressed = encoding && compressedFile(clientDir, file, encoding);
  if (!encoding || !compressed) return false;
  const headers: Record<string, string | number> = {
    'Content-Type': compressed.type,
    'Content-Encoding': encoding,
    'Content-Length': compressed.body.length,
    Vary: 'Accept-Encoding',
  };
  // Hashed build assets never change (as Astro's own handler says).
  if (file.startsWith('/_astro/')) headers['Cache-Control'] = 'public, max-age=31536000, immutable';
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : compressed.body);
  return true;
}

/**
 * Fails fast, before any visitor finds out: a malformed SUBMISSIONS_* setting, or a database
 * that cannot be created, opened or migrated, stops the server at start.
 */
export async function checkReceiver(env: NodeJS.ProcessEnv = process.env): Promise<ReceiverConfig> {
  const config = receiverConfig(env);
  const stores = openStores(config, { poolMax: 1 });
  try {
    await stores.ready;
  } finally {
    await stores.close();
  }
  return config;
}

/** Checks the receiver, then listens; prints the address (with the real port when PORT=0). */
export async function startServer({ host = process.env['HOST'] || '127.0.0.1', port = Number(process.env['PORT'] || 4321) } = {}): Promise<http.Server> {
  let config: ReceiverConfig;
  try {
    config = await checkReceiver();
  } catch (error) {
    console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const server = await createServer();
  await new Promise((resolve) => server.listen(port, host, () => resolve(undefined)));
  const address = server.address();
  const shown = host.includes(':') ? `[${host}]` : host;
  const worker = config.notifications ? openStores(config, { poolMax: 2 }) : undefined;
  console.log(`Submissions are stored in ${databaseWhere(config)}`);
  let outbox: OutboxWorker | undefined;
  if (config.notifications && worker) {
    outbox = new OutboxWorker({ store: worker.outbox, config: config.notifications, transport: smtpTransport(config.notifications.smtpUrl) });
    outbox.start();
    console.log(`Lead notifications are e-mailed to ${config.notifications.to.join(', ')}`);
    if (!config.siteUrl) console.log('SITE_URL is not set: lead e-mails carry no link to the staff inbox (set it to the site’s public address, as for the build).');
  } else {
    console.log('Lead notifications are off: SMTP_URL is not set (leads are stored; staff read them with npm run submissions).');
  }
  console.log(`Globaq site listening on http://${shown}:${typeof address === 'object' && address ? address.port : port}`);
  const stop = () => {
    void outbox?.stop().then(() => worker?.close());
    server.close(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return server;
}

/**
 * Methods no answer is made for: fetch's Request refuses them, so Astro would answer 500 and
 * log a stack trace each time (a cheap way to flood the log).
 */
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Headers only a trusted proxy may send: from anyone else they are dropped before Astro reads them. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];

/**
 * Keeps the server's whole set of security headers on every answer: a page rendered on demand
 * carries Astro's Content-Security-Policy header, which would replace the server's one (and
 * its frame-ancestors) instead of joining it.
 */
function keepFullCsp(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
    if (headers) {
      for (const name of Object.keys(headers)) {
        if (name.toLowerCase() === 'content-security-policy') headers[name] = mergeCsp(String(headers[name]));
      }
    }
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
  } as ServerResponse['writeHead'];
}

/** Astro's request handler for the built site (dist/server/entry.mjs). */
type AstroHandler = (req: IncomingMessage, res: ServerResponse) => void;

export async function createServer(): Promise<http.Server> {
  process.env['ASTRO_NODE_AUTOSTART'] = 'disabled';
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  const files = listFiles(clientDir);
  const behindHttps = process.env['BEHIND_HTTPS'] === 'true';
  const trusted = new TrustedProxies(receiverConfig().trustedProxies);
  const addresses = clientAddressStore();

  return http.createServer((req, res) => {
    const headers = securityHeadersFor({ behindHttps: behindHttps || Boolean(req.socket && 'encrypted' in req.socket && req.socket.encrypted) });
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    keepFullCsp(res);
    if (REFUSED_METHODS.has(req.method ?? '')) {
      res.writeHead(405, { Allow: 'GET, HEAD, POST, OPTIONS', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed.');
      return;
    }
    const peer = req.socket?.remoteAddress ?? '';
    const client = clientAddressOf(peer, req.headers['x-forwarded-for'], trusted);
    if (trusted.has(peer)) {
      // Astro takes the first address of the list: give it the one resolved from the right.
      if (req.headers['x-forwarded-for'] !== undefined) req.headers['x-forwarded-for'] = client;
    } else {
      for (const name of FORWARDED_HEADERS) delete req.headers[name];
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    const query = q >= 0 ? url.slice(q) : '';
    let pathname: string;
    try {
      pathname = decodeURIComponent(rawPath);
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Bad request: malformed URL.');
      return;
    }
    const route = resolveRoute(pathname, files);
    switch (route.kind) {
      case 'rewrite':
        req.url = route.pathname + query;
        break;
      case 'redirect':
        res.writeHead(301, { Location: route.location + query });
        res.end();
        return;
      case 'file':
        if (req.method !== 'GET' && req.method !== 'HEAD') break;
        if (sendCompressed(req, res, route.file, route.status)) return;
        res.writeHead(route.status, { 'Content-Type': 'text/html; charset=utf-8' });
        if (req.method === 'HEAD') res.end();
        else fs.createReadStream(path.join(clientDir, route.file)).pipe(res);
        return;
      default:
        break;
    }
    const file = staticFileFor(route.kind === 'rewrite' ? route.pathname : pathname, files);
    if (file && sendCompressed(req, res, file, 200)) return;
    addresses.run(client, () => handler(req, res));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await startServer();
}
