/**
 * Requests generated from an OpenAPI document, for the edge's fuzz test (../fuzz.test.ts): for each operation, a
 * plausible request built from its schemas, then that request with one field (or the whole body) made wrong:
 * missing, of the wrong type, out of range, oversized, malformed. Seeded: the same seed makes the same requests.
 *
 *   const rng = seeded(42);
 *   const cases = casesFor(document, operation, rng, { pool: { uuids: [], slugs: [] }, mutations: 4 });
 */

import { type Rng, seeded } from "./prng.ts";

/** A JSON Schema as the OpenAPI 3.0 documents write it. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  example?: unknown;
  default?: unknown;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface Document {
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One generated request: what it is (for the failure message), and its parts. */
export interface FuzzCase {
  what: string;
  path: Record<string, string>;
  query: Record<string, string>;
  /** The JSON body; `raw` sends this text as it is instead. */
  body?: unknown;
  raw?: string;
}

export { type Rng, seeded };

/** Values a valid request may name: ids that exist (so a request gets past its 404s), else random ones. */
export interface Pool {
  uuids: string[];
  slugs: string[];
}

const resolve = (doc: Document, schema: JsonSchema | undefined, depth = 0): JsonSchema => {
  if (!schema) return {};
  if (schema.$ref && depth < 20)
    return resolve(doc, doc.components?.schemas?.[schema.$ref.split("/").pop() ?? ""], depth + 1);
  return schema;
};

const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

const randomUuid = (rng: Rng) =>
  "xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx".replace(/x/g, () => rng.int(0, 15).toString(16));

function plausibleString(schema: JsonSchema, rng: Rng, pool: Pool): string {
  switch (schema.format) {
    case "uuid":
      return rng.chance(0.6) && pool.uuids.length ? rng.pick(pool.uuids) : randomUuid(rng);
    case "date-time":
      return new Date(Date.UTC(rng.int(2020, 2030), rng.int(0, 11), rng.int(1, 28), rng.int(0, 23))).toISOString();
    case "date":
      return new Date(Date.UTC(rng.int(2020, 2030), rng.int(0, 11), rng.int(1, 28))).toISOString().slice(0, 10);
    case "email":
      return `fuzz${rng.int(0, 1e6)}@booth.test`;
    case "uri":
    case "url":
      return `https://example.com/${rng.int(0, 1e6)}`;
  }
  if (typeof schema.example === "string") return schema.example;
  if (schema.pattern && pool.slugs.length) return rng.pick(pool.slugs);
  const min = schema.minLength ?? 1;
  const max = Math.max(min, Math.min(schema.maxLength ?? min + 12, min + 12));
  const length = rng.int(min, max);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return Array.from({ length }, () => rng.pick([...letters])).join("");
}

function plausibleNumber(schema: JsonSchema, rng: Rng, integer: boolean) {
  const low = typeof schema.minimum === "number" ? schema.minimum : 0;
  const high = typeof schema.maximum === "number" ? Math.min(schema.maximum, low + 100) : low + 100;
  const value = low + rng.next() * (high - low);
  return integer ? Math.round(value) : value;
}

/** A value the schema accepts (as far as the schema can say: patterns and cross-field rules aside). */
export function plausible(doc: Document, raw: JsonSchema | undefined, rng: Rng, pool: Pool, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 8) return null;
  if (schema.enum?.length) return rng.pick(schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return plausible(doc, rng.pick(options), rng, pool, depth + 1);
  if (schema.allOf?.length)
    return Object.assign({}, ...schema.allOf.map((s) => plausible(doc, s, rng, pool, depth + 1) ?? {}));
  switch (typeOf(schema)) {
    case "string":
      return plausibleString(schema, rng, pool);
    case "integer":
      return plausibleNumber(schema, rng, true);
    case "number":
      return plausibleNumber(schema, rng, false);
    case "boolean":
      return rng.chance(0.5);
    case "array": {
      const count = Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 2, 2));
      return Array.from({ length: count }, () => plausible(doc, schema.items, rng, pool, depth + 1));
    }
    default: {
      if (!schema.properties) return schema.type === "object" || schema.additionalProperties ? {} : "x";
      const required = new Set(schema.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties))
        if (required.has(key) || rng.chance(0.5)) out[key] = plausible(doc, property, rng, pool, depth + 1);
      return out;
    }
  }
}

/**
 * Wrong values for a field of this schema, each with what it is: first those aimed at its type (its range, its
 * length, its format), which find what validation missed; then the generic ones (null, another type).
 */
export function wrongValues(doc: Document, raw: JsonSchema | undefined): [string, unknown][] {
  const schema = resolve(doc, raw);
  const type = typeOf(schema) ?? (schema.properties ? "object" : undefined);
  const wrong: [string, unknown][] = [];
  if (type === "integer" || type === "number") {
    if (typeof schema.maximum === "number") wrong.push(["above its maximum", schema.maximum + 1]);
    if (typeof schema.minimum === "number") wrong.push(["below its minimum", schema.minimum - 1]);
    wrong.push(
      ["2^31", 2 ** 31],
      ["-2^31-1", -(2 ** 31) - 1],
      ["2^63", 2 ** 63],
      ["1e308", 1e308],
      ["a fraction", 0.5],
      ["a numeric string", "12"],
    );
  }
  if (type === "string") {
    if (typeof schema.maxLength === "number") {
      wrong.push(
        ["its longest", "x".repeat(schema.maxLength)],
        ["one past its longest", "x".repeat(schema.maxLength + 1)],
      );
    }
    wrong.push(
      ["empty", ""],
      ["blank", "   "],
      ["100,000 characters", "y".repeat(100_000)],
      ["not a uuid", "00000000-0000-0000-0000-00000000000g"],
      ["a nil uuid", "00000000-0000-0000-0000-000000000000"],
      ["year 0", "0000-01-01T00:00:00Z"],
      ["year 10000 once offset", "9999-12-31T23:59:59-14:00"],
      ["Feb 30", "2026-02-30"],
      ["a NUL", "a\u0000b"],
      ["a lone surrogate", "a\uD800b"],
      ["markup", "<script>alert(1)</script>"],
      ["SQL", "' OR 1=1 --"],
      ["a path", "../../etc/passwd"],
      ["emoji and RTL", "🎶\u202Eevil"],
      ["a number", 7],
    );
  }
  if (type === "array") {
    if (typeof schema.maxItems === "number")
      wrong.push(["one item too many", Array.from({ length: schema.maxItems + 1 }, () => "x")]);
    wrong.push(["empty", []], ["of nulls", [null, null]]);
  }
  wrong.push(["null", null], ["an object", { nested: { deeper: [1, "two"] } }], ["an array", [1, "two", null]]);
  if (type !== "string") wrong.push(["a string", "fuzz"], ["a NUL string", "a\u0000b"]);
  if (type !== "number" && type !== "integer") wrong.push(["a number", 12345], ["a negative number", -1]);
  if (type !== "boolean") wrong.push(["a boolean", true]);
  return wrong;
}

/** The leaves of a body: each field's path and schema (nested objects and array items included). */
function fieldsOf(
  doc: Document,
  raw: JsonSchema | undefined,
  at: string[] = [],
  depth = 0,
): { at: string[]; schema: JsonSchema }[] {
  const schema = resolve(doc, raw);
  if (depth > 5) return [];
  const out: { at: string[]; schema: JsonSchema }[] = [];
  const branch = (schema.anyOf ?? schema.oneOf ?? schema.allOf)?.find((s) => resolve(doc, s).properties);
  const properties = schema.properties ?? (branch ? resolve(doc, branch).properties : undefined);
  for (const [key, property] of Object.entries(properties ?? {})) {
    const path = [...at, key];
    out.push({ at: path, schema: property }, ...fieldsOf(doc, property, path, depth + 1));
  }
  return out;
}

const clone = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

function setAt(target: unknown, at: string[], value: unknown, remove = false) {
  let node = target as Record<string, unknown>;
  for (const key of at.slice(0, -1)) {
    if (!node || typeof node !== "object") return;
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  if (!node || typeof node !== "object") return;
  const last = at[at.length - 1] as string;
  if (remove) delete node[last];
  else node[last] = value;
}

const asQueryValue = (value: unknown) =>
  value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);

/**
 * The requests for one operation: a plausible one, then `mutations` of it, each wrong in one way. Path and query
 * values are strings; a body is JSON, or `raw` text for the body-level cases.
 */
export function casesFor(
  doc: Document,
  operation: Operation,
  rng: Rng,
  options: { pool: Pool; mutations: number },
): FuzzCase[] {
  const { pool } = options;
  const params = operation.parameters ?? [];
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
  const base: FuzzCase = {
    what: "a plausible request",
    path: Object.fromEntries(
      params.filter((p) => p.in === "path").map((p) => [p.name, asQueryValue(plausible(doc, p.schema, rng, pool))]),
    ),
    query: Object.fromEntries(
      params
        .filter((p) => p.in === "query" && (p.required || rng.chance(0.5)))
        .map((p) => [p.name, asQueryValue(plausible(doc, p.schema, rng, pool))]),
    ),
    body: bodySchema ? plausible(doc, bodySchema, rng, pool) : undefined,
  };

  type Mutation = () => FuzzCase;
  /** Each with its rank: the aimed values of each field come before the generic ones, then the body-level cases. */
  const mutations: Mutation[] = [];
  const ranks: number[] = [];
  const add = (rank: number, mutation: Mutation) => {
    mutations.push(mutation);
    ranks.push(rank);
  };
  for (const p of params.filter((q) => q.in === "path" || q.in === "query")) {
    const where = p.in === "path" ? "path" : "query";
    for (const [i, [what, value]] of wrongValues(doc, p.schema).entries()) {
      add(i, () => {
        const c = clone(base);
        c.what = `${where} ${p.name}: ${what}`;
        c[where][p.name] = asQueryValue(value) || (where === "path" ? "%20" : "");
        return c;
      });
    }
    if (p.in === "query" && p.required)
      add(0, () => {
        const c = clone(base);
        c.what = `query ${p.name}: missing`;
        delete c.query[p.name];
        return c;
      });
  }
  if (bodySchema) {
    for (const { at, schema } of fieldsOf(doc, bodySchema)) {
      const name = at.join(".");
      add(0, () => {
        const c = clone(base);
        c.what = `body ${name}: missing`;
        setAt(c.body, at, undefined, true);
        return c;
      });
      for (const [i, [what, value]] of wrongValues(doc, schema).entries())
        add(i, () => {
          const c = clone(base);
          c.what = `body ${name}: ${what}`;
          setAt(c.body, at, value);
          return c;
        });
    }
    const whole: [string, Partial<FuzzCase>][] = [
      ["no body", { body: undefined }],
      ["a body that is not JSON", { raw: "{not json" }],
      ["a JSON array for a body", { body: [] }],
      ["a JSON string for a body", { body: "text" }],
      ["a body nested 2,000 deep", { raw: `${"[".repeat(2000)}${"]".repeat(2000)}` }],
      ["unknown fields", { body: { ...(base.body as object), zzUnknown: 1 } }],
      [
        "a prototype in the body",
        { raw: '{"__proto__":{"roles":["admin"]},"constructor":{"prototype":{"admin":true}}}' },
      ],
    ];
    for (const [i, [what, change]] of whole.entries()) add(i + 2, () => ({ ...clone(base), what, ...change }));
  }

  const chosen: FuzzCase[] = [base];
  const budget = Math.min(options.mutations, mutations.length);
  // By rank (the first aimed value of every field, then the second, ...), in a seeded order within a rank.
  const order = mutations.map((_, i) => [(ranks[i] ?? 0) + rng.next(), i] as const).sort((a, b) => a[0] - b[0]);
  for (const [, i] of order.slice(0, budget)) chosen.push((mutations[i] as Mutation)());
  return chosen;
}
