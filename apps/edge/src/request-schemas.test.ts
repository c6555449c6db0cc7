import { type RouteConfig, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { DateTime, INT_MAX, Int, IsoDate, Offset } from "./lib/openapi.ts";
import { SERVICES } from "./services/index.ts";

/*
 * Every field of every request is bounded before it reaches the database (#19): the edge's 500s came from dates
 * PostgreSQL cannot store, non-uuids compared with uuid columns and integers beyond their column. This test walks the
 * zod schema of each route's path, query and JSON body and tries each field with what the database would refuse, so a
 * new route with an unbounded field fails here, not in production. (no-server-errors.test.ts sends such values over
 * HTTP; this one reaches the fields behind a 401 or a 404 too.)
 */

type Schema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

/** Ids that are not uuids: their columns are text (provider ids, slugs, short ids, device tokens). */
const TEXT_IDS = new Set([
  "avatarId",
  "deviceId",
  "stripePriceId",
  "appleProductId",
  "productId",
  "providerSongId",
  "crateShortId",
  "albumShortId",
  "songShortId",
  "artistShortId",
  "artistShortIds",
  "roomId", // a room's uuid or its slug
]);
/** Fields that take a uuid or a slug: the route looks the thing up by either. */
const UUID_OR_SLUG = [/\/communities\/\{id\}.* path\.id$/];
const UUID_NAMED = /^(id|uuid|idIn)$|(Uuid|Id)s?(In)?$/;
/** Numbers passed on, never stored: bounded, but by what they are for (Agora's uint32 uid, a push subscription's ms). */
const UNSTORED_NUMBERS = new Set(["uid", "expirationTime"]);

const HUGE = 250_000;
const hugeStrings = ["a".repeat(HUGE), `${"a".repeat(HUGE)}@example.com`, `https://example.com/${"a".repeat(HUGE)}`];
const UNSTORABLE_DATES = [
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+01:00",
  "9999-12-31T23:59:59-01:00",
  "0000-06-15",
];
const BEYOND_INT = [INT_MAX + 1, -INT_MAX - 2, 2 ** 53, 1e300];

interface Leaf {
  where: string;
  name: string;
  schema: Schema;
}

/** The leaves of a schema (strings, numbers, ...) with the name of the field each sits in. */
function leaves(schema: Schema, where: string, name: string, out: Leaf[] = [], depth = 0): Leaf[] {
  if (depth > 12) return out;
  if (!schema?._zod) throw new Error(`${where}: not a zod schema: ${JSON.stringify(schema)?.slice(0, 200)}`);
  const def = schema._zod.def;
  const inner = (s: unknown, n = name, w = where) => leaves(s as Schema, w, n, out, depth + 1);
  switch (def.type) {
    case "object":
      for (const [key, value] of Object.entries(def.shape as Record<string, Schema>))
        inner(value, key, `${where}.${key}`);
      break;
    case "array":
      inner(def.element, name, `${where}[]`);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      inner(def.innerType);
      break;
    case "union":
      // A union is checked as a whole: one branch may take what another refuses.
      out.push({ where, name, schema });
      break;
    case "pipe":
      inner(def.in);
      break;
    case "record":
      inner(def.valueType, name, `${where}{}`);
      break;
    case "lazy":
      inner((def.getter as () => Schema)());
      break;
    case "intersection":
      inner(def.left);
      inner(def.right);
      break;
    default:
      out.push({ where, name, schema });
  }
  return out;
}

const accepts = (schema: Schema, value: unknown) => schema.safeParse(value).success;
const kinds = (schema: Schema): string[] => {
  const def = schema._zod.def;
  if (def.type === "union") return (def.options as Schema[]).flatMap(kinds);
  if (["optional", "nullable", "default", "prefault", "readonly"].includes(def.type))
    return kinds(def.innerType as Schema);
  if (def.type === "pipe") return kinds(def.in as Schema);
  const format = def.format as string | undefined;
  return [format ? `${def.type}:${format}` : def.type];
};

/** What is wrong with one field, or nothing. */
function problems({ where, name, schema }: Leaf): string[] {
  const found: string[] = [];
  const types = kinds(schema);
  if (types.some((k) => k.startsWith("string")) && hugeStrings.some((s) => accepts(schema, s)))
    found.push(`takes a string of ${HUGE} characters (give it a .max())`);
  if (types.some((k) => k.startsWith("number")))
    for (const n of UNSTORED_NUMBERS.has(name) ? BEYOND_INT.slice(2) : BEYOND_INT)
      if (accepts(schema, n) || accepts(schema, String(n))) {
        found.push(`takes ${n}, beyond PostgreSQL's integer (use Int, Offset or a .max())`);
        break;
      }
  for (const date of UNSTORABLE_DATES)
    if (types.some((k) => k === "string:datetime" || k === "string:date") && accepts(schema, date))
      found.push(`takes ${date}, a date PostgreSQL cannot store (use DateTime or IsoDate)`);
  const textId = TEXT_IDS.has(name) || UUID_OR_SLUG.some((pattern) => pattern.test(where));
  if (UUID_NAMED.test(name) && !textId && accepts(schema, "not-a-uuid"))
    found.push("is named as a uuid but takes any string (use z.uuid())");
  return found;
}

interface RouteDefinition {
  type: string;
  route: RouteConfig;
}

const rawBodies: string[] = [];
const requestLeaves = (route: RouteConfig, label: string): Leaf[] => {
  const request = route.request ?? {};
  const found: Leaf[] = [];
  if (request.params) leaves(request.params as unknown as Schema, `${label} path`, "", found);
  if (request.query) leaves(request.query as unknown as Schema, `${label} query`, "", found);
  const media = request.body?.content?.["application/json"] as { schema?: object } | undefined;
  const body = media?.schema;
  // A body documented as plain JSON schema is read raw by its handler (a provider's signed webhook), not by zod.
  if (body && "_zod" in body) leaves(body as unknown as Schema, `${label} body`, "", found);
  else if (body) rawBodies.push(label);
  return found;
};

describe("every field of every request", () => {
  const routes = SERVICES.flatMap((service) =>
    (service.router.openAPIRegistry.definitions as RouteDefinition[])
      .filter((d) => d.type === "route")
      .map((d) => ({ label: `${d.route.method.toUpperCase()} ${service.prefix}${d.route.path}`, route: d.route })),
  );

  it("is bounded as its column is: strings in length, integers in PostgreSQL's range, dates storable, ids uuids", () => {
    const found = routes.flatMap(({ label, route }) =>
      requestLeaves(route, label).flatMap((leaf) => problems(leaf).map((p) => `${leaf.where}: ${p}`)),
    );
    expect(found).toEqual([]);
  });

  it("is walked: the routes and their fields are all seen (the walk above cannot pass by seeing nothing)", () => {
    expect(routes.length).toBeGreaterThan(400);
    expect([...new Set(rawBodies)]).toEqual(["POST /api/payment-service/webhook/stripe"]);
    const all = routes.flatMap(({ label, route }) => requestLeaves(route, label));
    expect(all.length).toBeGreaterThan(800);
    // Each rule catches what it is there for, and lets the shared bounded values through.
    const check = (name: string, schema: z.ZodType) => problems({ where: name, name, schema: schema as Schema });
    expect(check("roomUuid", z.string())).toEqual([
      expect.stringMatching(/250000 characters/),
      expect.stringMatching(/uuid/),
    ]);
    expect(check("position", z.number().int().min(0))).toEqual([expect.stringMatching(/integer/)]);
    expect(check("offset", z.coerce.number().int())).toEqual([expect.stringMatching(/integer/)]);
    expect(check("startsAt", z.iso.datetime({ offset: true }))).toHaveLength(3);
    for (const [name, schema] of Object.entries({
      roomUuid: z.uuid(),
      position: Int,
      offset: Offset,
      startsAt: DateTime,
    }))
      expect(check(name, schema)).toEqual([]);
    expect(check("day", IsoDate)).toEqual([]);
  });
});
