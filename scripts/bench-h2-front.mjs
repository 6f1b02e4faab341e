/**
 * For `npm run bench` with BENCH_HTTP2: an HTTP/2 TLS front, as nginx is in production
 * (docs/deploy.md, `listen 443 ssl http2`), before the site's own server. Each request is passed
 * on as it came (method, path, headers with Accept-Encoding, body) and the answer sent back as it
 * is, compressed or not. The certificate is self-signed, made at run time in a temporary folder
 * and removed on close; the browser is told to ignore certificate errors for these runs only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import os from 'node:os';
import path from 'node:path';

const OPENSSL = fs.existsSync('/usr/bin/openssl') ? '/usr/bin/openssl' : 'openssl';
/** Connection-level headers HTTP/2 forbids (RFC 9113, section 8.2.2), dropped both ways. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'te',
]);

/** A self-signed certificate for localhost, valid one day, in a new temporary folder. */
function selfSignedCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-h2-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  const made = spawnSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (made.error || made.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    const why =
      made.error?.code === 'ENOENT'
        ? 'openssl was not found (install it: apt-get install openssl)'
        : `openssl failed: ${made.stderr?.toString().trim()}`;
    throw new Error(`BENCH_HTTP2 needs a throwaway certificate, but ${why}.`);
  }
  return { dir, key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) };
}

/**
 * Starts the front on a free port of 127.0.0.1, passing every request to http://127.0.0.1:upstreamPort.
 * Resolves to { origin, close }.
 */
export async function startHttp2Front(upstreamPort) {
  const { dir, key, cert } = selfSignedCertificate();
  const agent = new http.Agent({ keepAlive: true });
  const server = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name.startsWith(':') || HOP_BY_HOP.has(name)) continue;
      headers[name] = value;
    }
    headers.host = req.headers[':authority'] ?? req.headers.host ?? `127.0.0.1:${upstreamPort}`;
    const upstream = http.request(
      { host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers, agent },
      (answer) => {
        const out = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    origin: `https://127.0.0.1:${port}`,
    close: async () => {
      // Open sessions end with the browser; wait for them at most a second.
      await Promise.race([
        new Promise((resolve) => server.close(() => resolve(undefined))),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
      agent.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
