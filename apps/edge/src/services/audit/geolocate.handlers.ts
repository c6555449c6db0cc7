import type { Context } from "hono";
import { addressBucket, rateLimit, requireToken, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { parseIp } from "../../ports/geo.ts";
import type * as routes from "./geolocate.routes.ts";
import { GET_LIMIT, geolocate, POST_LIMIT, stripPort } from "./geolocation.ts";

/** The socket's peer, as the Node server (`incoming`) or Deno.serve (`remoteAddr`) hand it to the app. */
function connectionAddress(c: Context<AppEnv>): string | undefined {
  const env = c.env as
    | { incoming?: { socket?: { remoteAddress?: string } }; remoteAddr?: { hostname?: string } }
    | undefined;
  return env?.incoming?.socket?.remoteAddress ?? env?.remoteAddr?.hostname;
}

/**
 * The caller's address: what the proxy in front says (Cloudflare's header, the first X-Forwarded-For entry, X-Real-IP),
 * else the connection. Headers can be forged, but only to geolocate some other address, which POST does anyway.
 */
function callerAddress(c: Context<AppEnv>): { header: string; value: string } | null {
  const forwarded = c.req.header("x-forwarded-for")?.split(",")[0];
  const candidates: [string, string | undefined][] = [
    ["cf-connecting-ip", c.req.header("cf-connecting-ip")],
    ["x-forwarded-for", forwarded],
    ["x-real-ip", c.req.header("x-real-ip")],
    ["connection", connectionAddress(c)],
  ];
  for (const [header, value] of candidates) if (value?.trim()) return { header, value: stripPort(value.trim()) };
  return null;
}

export const geolocateCaller: AppRouteHandler<typeof routes.geolocateCaller> = async (c) => {
  const address = callerAddress(c);
  // Counted against the address the edge trusts, not the headers looked up, which anyone may write.
  await rateLimit(c, `geo:get:${addressBucket(c)}`, GET_LIMIT, 60);
  const ip = address ? parseIp(address.value) : null;
  if (address && !ip) throw badRequest(`${address.header}: "${address.value.slice(0, 60)}" is not an IP address.`);
  return c.json(await geolocate(c.var.deps, ip), 200);
};

export const geolocateAddress: AppRouteHandler<typeof routes.geolocateAddress> = async (c) => {
  const claims = requireToken(c);
  // Accounts are checked (a revoked or banned account is refused); guest and service tokens stand alone.
  if (claims.type === "user" || claims.type === "bot") await requireUser(c, { types: ["user", "bot"] });
  await rateLimit(c, `geo:post:${claims.sub}`, POST_LIMIT, 60);
  const { ip: raw } = c.req.valid("json");
  const ip = parseIp(raw);
  if (!ip) throw badRequest(`ip: "${raw}" is not an IPv4 or IPv6 address.`);
  return c.json(await geolocate(c.var.deps, ip), 200);
};
