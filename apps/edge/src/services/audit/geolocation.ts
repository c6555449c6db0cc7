import type { AppDeps } from "../../deps.ts";
import { unavailable } from "../../lib/errors.ts";
import { type GeoRecord, GeoUnavailableError, type IpScope, ipScope, type ParsedIp } from "../../ports/geo.ts";

export const GEO_UNAVAILABLE = "The geolocation database is not available.";
/** Own-address lookups per caller address per minute. */
export const GET_LIMIT = 60;
/** Lookups of any address per token per minute. */
export const POST_LIMIT = 300;

export interface Geolocation extends GeoRecord {
  ip: string | null;
  version: 4 | 6 | null;
  scope: IpScope | "unknown";
  found: boolean;
  source: string;
}

const EMPTY = {
  found: false,
  country: null,
  region: null,
  city: null,
  latitude: null,
  longitude: null,
  timezone: null,
};

/** Where an address is; private and reserved ones are never looked up. A 503 when the database is unavailable. */
export async function geolocate(deps: Pick<AppDeps, "geo" | "logger">, ip: ParsedIp | null): Promise<Geolocation> {
  const { geo } = deps;
  if (!ip) return { ip: null, version: null, scope: "unknown", ...EMPTY, source: geo.source };
  const scope = ipScope(ip);
  const base = { ip: ip.text, version: ip.version, scope, source: geo.source };
  if (scope !== "public") return { ...base, ...EMPTY };
  try {
    const record = await geo.lookup(ip);
    return record ? { ...base, found: true, ...record } : { ...base, ...EMPTY };
  } catch (err) {
    if (!(err instanceof GeoUnavailableError)) throw err;
    deps.logger({ level: "error", msg: "geolocation database unavailable", err: err.message });
    throw unavailable(GEO_UNAVAILABLE);
  }
}

/** `1.2.3.4:5678` and `[::1]:5678` as some proxies write them, down to the address. */
export function stripPort(value: string): string {
  const bracketed = value.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed?.[1]) return bracketed[1];
  const v4WithPort = value.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/);
  return v4WithPort?.[1] ?? value;
}
