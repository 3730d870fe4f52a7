import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * The network side of a webhook delivery (decision 040): the host is resolved at every attempt,
 * every address it resolves to is checked against the loopback / private / link-local / reserved
 * ranges (unless the configuration allows them: development and tests), and the connection is made
 * to the address that was checked — pinned, so a second resolution (DNS rebinding) cannot swap it.
 * No redirect is followed; the answer's first 2 KB are kept.
 */

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['100::', 64], ['2001:db8::', 32],
  ['64:ff9b:1::', 48],
] as const) blocked.addSubnet(net, bits, 'ipv6');

/** True for an address no webhook may reach in production (IPv4-mapped and NAT64 IPv6 judged by their IPv4). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const hexMapped = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

export class RefusedAddress extends Error {}

/** The address to connect to: every resolved address must be allowed (one private answer refuses all). */
export async function resolveAllowed(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const found = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }] : ((await lookup(host, { all: true, verbatim: true })) as { address: string; family: 4 | 6 }[]);
  if (!found.length) throw new Error(`${host}: no address`);
  if (!allowPrivate) {
    const bad = found.find((a) => isPrivateAddress(a.address));
    if (bad) throw new RefusedAddress(`${host} resolves to ${bad.address}, a loopback, private or link-local address`);
  }
  return found[0];
}

export interface PostResult {
  status: number;
  /** The first 2 KB of the answer's body (UTF-8). */
  excerpt: string;
}

export const RESPONSE_EXCERPT_BYTES = 2048;

/** POSTs `body` to `url`, connecting to `pinned` only; resolves on any HTTP answer, rejects on a network error or timeout. */
export function postPinned(url: URL, pinned: { address: string; family: 4 | 6 }, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const pin: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pin, timeout: timeoutMs, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8') });
        res.on('data', (c: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(c);
          size += c.length;
          if (size >= RESPONSE_EXCERPT_BYTES) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', () => done());
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}
