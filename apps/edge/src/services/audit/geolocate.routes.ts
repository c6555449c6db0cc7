import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { addressBucket, rateLimit, requireToken, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, unavailable } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { GeoUnavailableError, IpScope, ipScope, type ParsedIp, parseIp } from "../../ports/geo.ts";

export const geolocateRoutes = createRouter();
const tags = ["Geolocation"];

export const GEO_UNAVAILABLE = "The geolocation database is not available.";
/** Own-address lookups per caller address per minute. */
const GET_LIMIT = 60;
/** Lookups of any address per token per minute. */
const POST_LIMIT = 300;

export const GeolocationSchema = z
  .object({
    ip: z.string().nullable().openapi({ description: "The address looked up, canonical; null when unknown" }),
    version: z.union([z.literal(4), z.literal(6)]).nullable(),
    scope: z.enum([...Object.values(IpScope), "unknown"]).openapi({
      description: "public addresses are looked up; private, loopback, link-local and reserved ones never are",
    }),
    found: z.boolean().openapi({ description: "Whether the database placed the address" }),
    country: z.string().nullable().openapi({ description: "ISO 3166-1 alpha-2", example: "GB" }),
    region: z.string().nullable().openapi({ example: "England" }),
    city: z.string().nullable().openapi({ example: "London" }),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    timezone: z.string().nullable(),
    source: z.string().openapi({ description: "The database, with the attribution its licence asks for" }),
  })
  .openapi("Geolocation");
type Geolocation = z.infer<typeof GeolocationSchema>;

const EMPTY = {
  found: false,
  country: null,
  region: null,
  city: null,
  latitude: null,
  longitude: null,
  timezone: null,
};

async function geolocate(c: Context<AppEnv>, ip: ParsedIp | null): Promise<Geolocation> {
  const { geo } = c.var.deps;
  if (!ip) return { ip: null, version: null, scope: "unknown", ...EMPTY, source: geo.source };
  const scope = ipScope(ip);
  const base = { ip: ip.text, version: ip.version, scope, source: geo.source };
  if (scope !== "public") return { ...base, ...EMPTY };
  try {
    const record = await geo.lookup(ip);
    return record ? { ...base, found: true, ...record } : { ...base, ...EMPTY };
  } catch (err) {
    if (!(err instanceof GeoUnavailableError)) throw err;
    c.var.deps.logger({ level: "error", msg: "geolocation database unavailable", err: err.message });
    throw unavailable(GEO_UNAVAILABLE);
  }
}

/** `1.2.3.4:5678` and `[::1]:5678` as some proxies write them, down to the address. */
function stripPort(value: string): string {
  const bracketed = value.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed?.[1]) return bracketed[1];
  const v4WithPort = value.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/);
  return v4WithPort?.[1] ?? value;
}

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

geolocateRoutes.openapi(
  createRoute({
    method: "get",
    path: "/geolocate",
    tags,
    summary: "Where the caller's address is: country and region (anyone)",
    description:
      "The address is taken from CF-Connecting-IP, the first X-Forwarded-For entry, X-Real-IP or the connection. " +
      "Private and reserved addresses answer 200 with their scope and no place.",
    responses: { 200: json(GeolocationSchema), ...errors(400, 429, 503) },
  }),
  async (c) => {
    const address = callerAddress(c);
    // Counted against the address the edge trusts, not the headers looked up, which anyone may write.
    await rateLimit(c, `geo:get:${addressBucket(c)}`, GET_LIMIT, 60);
    const ip = address ? parseIp(address.value) : null;
    if (address && !ip) throw badRequest(`${address.header}: "${address.value.slice(0, 60)}" is not an IP address.`);
    return c.json(await geolocate(c, ip), 200);
  },
);

geolocateRoutes.openapi(
  createRoute({
    method: "post",
    path: "/geolocate",
    tags,
    summary: "Where an IPv4 or IPv6 address is: country and region (any token: users, guests, bots, services)",
    security: bearer,
    request: jsonBody(z.object({ ip: z.string().max(64).openapi({ example: "81.2.69.160" }) }).strict()),
    responses: { 200: json(GeolocationSchema), ...errors(400, 401, 403, 429, 503) },
  }),
  async (c) => {
    const claims = requireToken(c);
    // Accounts are checked (a revoked or banned account is refused); guest and service tokens stand alone.
    if (claims.type === "user" || claims.type === "bot") await requireUser(c, { types: ["user", "bot"] });
    await rateLimit(c, `geo:post:${claims.sub}`, POST_LIMIT, 60);
    const { ip: raw } = c.req.valid("json");
    const ip = parseIp(raw);
    if (!ip) throw badRequest(`ip: "${raw}" is not an IPv4 or IPv6 address.`);
    return c.json(await geolocate(c, ip), 200);
  },
);
