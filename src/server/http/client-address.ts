/**
 * Who is asking: the address the rate limit counts. X-Forwarded-For is a list any client can start,
 * so it is read only when the peer is a trusted proxy (TRUSTED_PROXIES), and then from the right:
 * the first address that is not one of our proxies is the real client; the rest the client wrote.
 */
import net from 'node:net';

/** The proxies whose X-Forwarded-For is believed: exact addresses and CIDR ranges. */
export class TrustedProxies {
  readonly #list = new net.BlockList();
  readonly size: number;

  /** @param entries addresses ("127.0.0.1", "::1") or ranges ("10.0.0.0/8", "fd00::/8"); already checked by parseTrustedProxies */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#list.addAddress(address, family);
      else this.#list.addSubnet(address, Number(prefix), family);
    }
    this.size = entries.length;
  }

  has(address: string): boolean {
    if (this.size === 0) return false;
    const plain = unmapped(address);
    if (net.isIPv4(plain)) return this.#list.check(plain, 'ipv4');
    if (net.isIPv6(plain)) return this.#list.check(plain, 'ipv6');
    return false;
  }
}

/** "::ffff:127.0.0.1" (an IPv4 client on an IPv6 socket) as "127.0.0.1". */
function unmapped(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/** The entries of TRUSTED_PROXIES, each an IP address or a CIDR range; throws naming the first that is neither. */
export function parseTrustedProxies(raw: string | undefined): string[] {
  const out: string[] = [];
  for (const item of (raw ?? '').split(',')) {
    const entry = item.trim();
    if (entry === '') continue;
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = net.isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new Error(`"${entry}" is not an IP address or a CIDR range such as 127.0.0.1, ::1 or 10.0.0.0/8`);
    }
    out.push(entry);
  }
  return out;
}

/** The client's address: the peer, or behind a trusted proxy the right-most forwarded address that is not one. */
export function clientAddressOf(
  peer: string,
  forwardedFor: string | readonly string[] | undefined,
  trusted: TrustedProxies,
): string {
  if (!trusted.has(peer) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : String(forwardedFor))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = unmapped(hops[i] ?? '');
    if (net.isIP(hop) === 0) break;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}
