import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import ipaddr from "ipaddr.js";
import proxyAddr from "proxy-addr";
import type { AppEnv } from "./context.ts";

type Trust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY: the proxies allowed to name the client in X-Forwarded-For, as addresses and CIDR ranges separated by
 * commas or spaces. Only literal addresses count (no "loopback"-style names, no "trust everyone"), so what is trusted
 * is exactly what the operator wrote.
 */
export function parseTrustProxy(value: string | undefined): string[] {
  const entries = (value ?? "").split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [address = "", ...rest] = entry.split("/");
    let valid = ipaddr.isValid(address) && rest.length <= 1;
    if (valid) {
      try {
        proxyAddr.compile(entry);
      } catch {
        valid = false;
      }
    }
    if (!valid) throw new Error(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range.`);
  }
  return entries;
}

const compiled = new WeakMap<readonly string[], Trust>();
function trustFor(list: readonly string[]): Trust {
  let trust = compiled.get(list);
  if (!trust) {
    trust = proxyAddr.compile([...list]);
    compiled.set(list, trust);
  }
  return trust;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, what a dual-stack socket reports) as plain IPv4; IPv6 in its short form. */
function canonical(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address.slice(0, 64);
}

/**
 * The caller's address. The socket's peer, from the runtime (deps.peerAddress); X-Forwarded-For is followed only
 * through peers listed in config.trustProxy, from the right, to the first hop that is not trusted: a header set by
 * anyone else is ignored, so nobody picks the address their limits count against.
 */
export function clientAddress(c: Context<AppEnv>): string {
  const { peerAddress, config } = c.var.deps;
  const peer = peerAddress?.(c);
  if (!peer) return "unknown";
  const trust = config.trustProxy ?? [];
  if (trust.length === 0) return canonical(peer);
  // proxy-addr reads a Node request; these are the only fields it looks at.
  const request = {
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
    headers: { "x-forwarded-for": c.req.header("x-forwarded-for") },
  } as unknown as IncomingMessage;
  return canonical(proxyAddr(request, trustFor(trust)));
}

/**
 * What per-address limits count against: the address, or for IPv6 its /64, since anyone given one IPv6 address
 * holds the whole /64 and could otherwise take a fresh address per request.
 */
export function addressBucket(c: Context<AppEnv>): string {
  const address = clientAddress(c);
  if (!ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
}
