import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { lookup } from 'node:dns/promises';

/**
 * The network side of a webhook delivery (decision 040): the host is resolved at every attempt,
 * every address it resolves to is checked against the loopback / private / link-local / reserved
 * ranges (unless the configuration allows them: development and tests), and the connection is made
 * to the address that was checked — pinned, so a second resolution (DNS rebinding) cannot swap it.
 * No redirect is followed; the answer's first 2 KB are kept.
 */

/** An IPv4 address from four bytes. */
const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);

/**
 * Only global unicast IPv4 may be reached: ipaddr.js names every other range (unspecified 0/8,
 * private, loopback, link-local, carrier-grade NAT, multicast, broadcast, the documentation,
 * benchmarking and 6to4-relay ranges, 240/4, AS112, AMT) and each of them is refused.
 */
const v4Private = (a: ipaddr.IPv4) => a.range() !== 'unicast';

/**
 * An IPv6 address is judged by the IPv4 it embeds when it has one: IPv4-mapped ::ffff:a.b.c.d,
 * IPv4-translated ::ffff:0:a.b.c.d (SIIT, RFC 6145), NAT64 64:ff9b::a.b.c.d (RFC 6052), 6to4
 * 2002:aabb:ccdd::/48 (RFC 3056) and an ISATAP interface id ::5efe:a.b.c.d (RFC 5214). Forms whose
 * IPv4 cannot be judged are refused outright: IPv4-compatible ::a.b.c.d (deprecated, RFC 4291),
 * local-use NAT64 64:ff9b:1::/48 (RFC 8215) and Teredo 2001::/32. Anything else but global
 * unicast (loopback, unspecified, unique-local, link-local, site-local, multicast, discard,
 * documentation, benchmarking, ORCHID, segment routing …) is refused too.
 */
function v6Private(a: ipaddr.IPv6): boolean {
  const p = a.parts;
  switch (a.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return v4Private(v4(p[6], p[7]));
    case 'rfc6052':
      return p[2] !== 0 || v4Private(v4(p[6], p[7]));
    case '6to4':
      return v4Private(v4(p[1], p[2]));
    case 'unicast':
      if (p.slice(0, 6).every((x) => x === 0)) return true; // ::a.b.c.d
      if ((p[4] & 0xfdff) === 0 && p[5] === 0x5efe) return v4Private(v4(p[6], p[7])); // ISATAP
      return false;
    default:
      return true;
  }
}

/**
 * True for an address no webhook may reach in production. Parsed strictly: `net.isIP` decides the
 * family and the WHATWG URL parser writes an IPv6 address in its canonical hexadecimal form before
 * ipaddr.js reads it (ipaddr.js 2.5 reads the dotted form ::a.b.c.d as if it were ::ffff:a.b.c.d).
 * What cannot be parsed is refused.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  try {
    if (family === 4) return v4Private(ipaddr.IPv4.parse(address));
    if (family !== 6) return true;
    const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
    return v6Private(ipaddr.IPv6.parse(canonical));
  } catch {
    return true;
  }
}

/** An address (or a scheme) no webhook may use: no connection was made. */
export class RefusedAddress extends Error {
  constructor(
    message: string,
    readonly https = false,
  ) {
    super(message);
  }
}
/** The host name resolved to no address. */
export class NoAddress extends Error {}
/** No answer within the time allowed. */
export class TimedOut extends Error {}

/** The address to connect to: every resolved address must be allowed (one private answer refuses all). */
export async function resolveAllowed(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const found = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }] : ((await lookup(host, { all: true, verbatim: true })) as { address: string; family: 4 | 6 }[]);
  if (!found.length) throw new NoAddress(`${host}: no address`);
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

const RESPONSE_EXCERPT_BYTES = 2048;

/** POSTs `body` to `url`, connecting to `pinned` only; resolves on any HTTP answer, rejects on a network error or timeout. */
export function postPinned(url: URL, pinned: { address: string; family: 4 | 6 }, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const pin: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: pinned.address, family: pinned.family }]);
    else cb(null, pinned.address, pinned.family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: pin, timeout: timeoutMs, agent: false }, (res) => {
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
    });
    const timer = setTimeout(() => req.destroy(new TimedOut(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new TimedOut(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('close', () => clearTimeout(timer));
    req.end(body);
  });
}
