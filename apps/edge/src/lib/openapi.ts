import { createRoute, OpenAPIHono, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "./context.ts";
import { badRequest, statusText } from "./errors.ts";
import { validationHook } from "./validation.ts";

export const createRouter = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
export type Router = ReturnType<typeof createRouter>;

/** A handler of one route contract (`<resource>.routes.ts`), written in `<resource>.handlers.ts`. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;

type JsonSchema<T> = T extends { content: { "application/json": { schema: infer S extends z.ZodType } } } ? S : never;
/** The validated JSON body of route `R`. */
export type BodyOf<R extends RouteConfig> = R["request"] extends { body?: infer B } ? z.output<JsonSchema<B>> : never;
/** What route `R` answers with `code`. */
export type AnswerOf<R extends RouteConfig, Code extends number> = R["responses"] extends { [C in Code]: infer A }
  ? z.infer<JsonSchema<A>>
  : never;

export const ErrorSchema = z
  .object({
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
    code: z.string().openapi({
      description:
        "A stable machine code for the refusal (lib/error-codes.ts): a specific one for a meaning a person meets " +
        "(INCORRECT_LOGIN, NICKNAME_TAKEN, ROOM_NOT_FOUND...), VALIDATION_FAILED for a request with bad fields, " +
        "else one per status (BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, RATE_LIMITED, UNAVAILABLE...). " +
        "Clients key their own texts on it; the message is the English one.",
      example: "NICKNAME_TAKEN",
    }),
  })
  .openapi("Error");

export const json = <T extends z.ZodType>(schema: T, description = "OK") => ({
  content: { "application/json": { schema } },
  description,
});

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  body: { content: { "application/json": { schema } }, required: true, ...(description ? { description } : {}) },
});

/** A multipart request body: the uploaded `file`, and the form's other `fields`. */
export const fileBody = <T extends z.ZodRawShape = Record<never, never>>(fields = {} as T) => ({
  body: {
    required: true,
    content: {
      "multipart/form-data": {
        schema: z.object({ file: z.any().openapi({ type: "string", format: "binary" }), ...fields }),
      },
    },
  },
});

const seconds = (description: string) => ({ schema: { type: "integer" as const, minimum: 0 }, description });
/** The headers of a 429 (lib/rate-limit.ts): when to come back, and the window's limit and what is left of it. */
const RATE_LIMIT_HEADERS = {
  "Retry-After": seconds("Seconds until a new attempt may succeed"),
  "RateLimit-Limit": seconds("Attempts allowed in the window"),
  "RateLimit-Remaining": seconds("Attempts left in the window"),
  "RateLimit-Reset": seconds("Seconds until the window resets"),
};

/** Error responses of a route, in the one envelope (a 429 with its rate-limit headers). */
export const errors = (...codes: number[]) =>
  Object.fromEntries(
    codes.map((code) => [
      code,
      code === 429
        ? { ...json(ErrorSchema, statusText(code)), headers: RATE_LIMIT_HEADERS }
        : json(ErrorSchema, statusText(code)),
    ]),
  ) as Record<number, ReturnType<typeof json<typeof ErrorSchema>>>;

export const noContent = { 204: { description: "No Content" } } as const;

/** A route's answers: 200 with `schema`, and the error responses `codes`. */
export const ok = <T extends z.ZodType>(schema: T, ...codes: number[]) => ({ 200: json(schema), ...errors(...codes) });
/** A route's answers: 201 with what it made (`schema`), and the error responses `codes`. */
export const created = <T extends z.ZodType>(schema: T, ...codes: number[]) => ({
  201: json(schema, "Created"),
  ...errors(...codes),
});
/** A route's answers: 204 without a body, and the error responses `codes`. */
export const noContentOr = (...codes: number[]) => ({ ...noContent, ...errors(...codes) });

export const bearer = [{ bearerAuth: [] }];

type Method = RouteConfig["method"];
/**
 * What a contract says besides its method, path and security: its `summary`, and its `tags` when not the resource's.
 * The terms are `createRoute`'s own, named as it names them.
 */
type Terms = Omit<RouteConfig, "method" | "path" | "security"> & { summary: string };

/**
 * The contracts of one resource, listed under `tags`: `route(method, path, { summary, request, responses })` is
 * `createRoute({ method, path, tags, summary, request, responses })`, and `authed(...)` is the same route for a
 * caller with a token (`security: bearer`). A contract may name its own `tags`, and a `description`. The keys keep the
 * order of the OpenAPI documents: method, path, tags, summary, description, security, then the rest.
 */
export function contracts(tags: string[]) {
  const contract =
    (secured: boolean) =>
    <M extends Method, P extends string, T extends Terms>(method: M, path: P, terms: T) => {
      const { tags: own = tags, summary, description, ...rest } = terms;
      return createRoute({
        method,
        path,
        tags: own,
        summary,
        ...(description === undefined ? {} : { description }),
        ...(secured ? { security: bearer } : {}),
        ...(rest as Omit<T, "tags" | "summary" | "description">),
      });
    };
  return { route: contract(false), authed: contract(true) };
}

export const Uuid = z.uuid();

/** When a row was made and last changed (the schema's `timestamps()`), as answers show them: ISO strings. */
export const Timestamps = { createdAt: z.string(), updatedAt: z.string() };

/*
 * The bounded values a client may send. Every field of a request is one of these (or a string with a maxLength, an
 * enum, a uuid): `request-schemas.test.ts` walks every route's request and fails on a field the database could refuse.
 */

/** The largest value of PostgreSQL's `integer`, the type of every integer column. */
export const INT_MAX = 2_147_483_647;
/** A whole number in a request body (a position, a price, points): within PostgreSQL's `integer`. */
export const Int = z
  .number()
  .int()
  .min(-INT_MAX - 1)
  .max(INT_MAX);
/** Rows to skip in a list (the `offset` or `skip` query parameter), from 0 within PostgreSQL's `integer`. */
export const Offset = z.coerce.number().int().min(0).max(INT_MAX).default(0);

// PostgreSQL stores years 4713 BC to 294276 AD, but an ISO date with year 0000 (or a year beyond 9999 once its offset
// is applied) is refused: a date a client sends must fall within the years 1 to 9999, in UTC.
const FIRST_INSTANT = new Date("0001-01-01T00:00:00Z").getTime();
const LAST_INSTANT = new Date("9999-12-31T23:59:59.999Z").getTime();
const storable = (value: string) => {
  const time = Date.parse(value);
  return time >= FIRST_INSTANT && time <= LAST_INSTANT;
};
const DATE_RANGE = "must be a date between the years 1 and 9999";
/** An instant with its offset (`2026-07-01T20:00:00Z`), between the years 1 and 9999. */
export const DateTime = z.iso
  .datetime({ offset: true })
  .refine(storable, DATE_RANGE)
  .openapi({ example: "2026-07-01T20:00:00Z" });
/** A calendar day (`2026-07-01`), between the years 1 and 9999. */
export const IsoDate = z.iso
  .date()
  .refine((value) => storable(`${value}T00:00:00Z`), DATE_RANGE)
  .openapi({ example: "2026-07-01" });

const splitIds = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A comma-separated list of uuids in a query parameter (`id=a,b`): a 400 naming each one that is not a uuid. */
export const UuidCsv = z
  .string()
  .max(20_000)
  .superRefine((value, ctx) => {
    for (const id of splitIds(value))
      if (!Uuid.safeParse(id).success) ctx.addIssue({ code: "custom", message: `${id} is not a uuid` });
  })
  .openapi({ description: "comma-separated uuids" });

/** A comma-separated list of uuids from a query parameter; a 400 naming the field when one is not a uuid. */
export function uuidList(value: string | undefined, field: string): string[] {
  const ids = splitIds(value);
  const bad = ids.filter((id) => !Uuid.safeParse(id).success);
  if (bad.length) throw badRequest(bad.map((id) => `${field}: ${id} is not a uuid`));
  return ids;
}

/** A list's `limit`, 1 to `max` rows (`byDefault` unless said), and the `offset` to start at: a query's paging fields. */
export const limitOffset = (max: number, byDefault: number) => ({
  limit: z.coerce.number().int().min(1).max(max).default(byDefault),
  offset: Offset,
});
/** limit/offset paging for plain lists (admin lists with filters use the nestjsx/crud query instead). */
export const PageQuery = z.object(limitOffset(1000, 100));
export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), total: z.number().int() }).openapi(name);
/** Path parameters that are uuids, by their `names`: `uuidParams("room", "user")` for `/roles/{room}/{user}`. */
export const uuidParams = <const N extends string>(...names: N[]) =>
  z.object(
    Object.fromEntries(names.map((name) => [name, z.uuid().openapi({ param: { name, in: "path" } })])) as {
      [K in N]: z.ZodUUID;
    },
  );
export const UuidParam = uuidParams("id");
/** A key named in a path (a slug, or an id that may be a slug): 1 to 100 characters. */
export const pathKey = (name: string, description: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name, in: "path", description } });

export interface DocumentInfo {
  title: string;
  version: string;
  prefix: string;
}

export const documentConfig = (info: DocumentInfo) => ({
  openapi: "3.0.3",
  info: { title: info.title, version: info.version },
  servers: [{ url: info.prefix }],
});

/** Mounts the OpenAPI document of a service router at `/openapi.json`. */
export function withDocument(router: Router, info: DocumentInfo) {
  router.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  router.doc("/openapi.json", documentConfig(info));
  return router;
}
