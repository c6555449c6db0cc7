import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";
import { IpScope } from "../../ports/geo.ts";

const { authed, route } = contracts(["Geolocation"]);

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

export const geolocateCaller = route("get", "/geolocate", {
  summary: "Where the caller's address is: country and region (anyone)",
  description:
    "The address is taken from CF-Connecting-IP, the first X-Forwarded-For entry, X-Real-IP or the connection. " +
    "Private and reserved addresses answer 200 with their scope and no place.",
  responses: ok(GeolocationSchema, 400, 429, 503),
});

export const geolocateAddress = authed("post", "/geolocate", {
  summary: "Where an IPv4 or IPv6 address is: country and region (any token: users, guests, bots, services)",
  request: jsonBody(z.object({ ip: z.string().max(64).openapi({ example: "81.2.69.160" }) }).strict()),
  responses: ok(GeolocationSchema, 400, 401, 403, 429, 503),
});
