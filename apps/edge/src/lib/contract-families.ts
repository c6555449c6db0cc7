import type { Db } from "@booth/db";
import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { requireService } from "./auth.ts";
import type { AppEnv } from "./context.ts";
import { CrudQuerySchema, CrudSelectionSchema, crudPageSchema } from "./crud/index.ts";
import {
  type AnswerOf,
  type AppRouteHandler,
  type contracts,
  created,
  jsonBody,
  noContentOr,
  Offset,
  ok,
  UuidParam,
} from "./openapi.ts";

/*
 * The families of contracts that many resources have: each is one maker, called with the resource's own `route` or
 * `authed` (from `contracts(tags)`, so the resource's tags) and what differs (path, summary, schema). A family says
 * the request and every answer of its routes; a route that answers otherwise is not of the family.
 */

/** `route` or `authed` of `contracts(tags)`. */
type Contract = ReturnType<typeof contracts>["authed"];
/** What a contract's `request.params` may be: an object of path parameters. */
type PathParams = NonNullable<NonNullable<RouteConfig["request"]>["params"]>;

/** skip/take paging (the older lists): `skip` rows from 0, then `take` of them, 1 to `max`, `byDefault` unless said. */
export const skipTake = (max: number, byDefault: number) =>
  z.object({ skip: Offset, take: z.coerce.number().int().min(1).max(max).default(byDefault) });

/** Deletes the item its path names (by `params`; the `{id}` uuid unless said): 204, or 400, 401, 403, 404. */
export const removal = <P extends string, Q extends PathParams = typeof UuidParam>(
  contract: Contract,
  path: P,
  summary: string,
  params: Q = UuidParam as unknown as Q,
) => contract("delete", path, { summary, request: { params }, responses: noContentOr(400, 401, 403, 404) });

/**
 * The caller starts a relation with another user (a follow, a friend invitation, a block): the body names them by
 * `key`; 201 with the relation as `schema`, or 404 (no such user), 409 (there is one already).
 */
export const relationTo = <P extends string, K extends string, S extends z.ZodType>(
  contract: Contract,
  path: P,
  summary: string,
  key: K,
  schema: S,
) =>
  contract("post", path, {
    summary,
    request: jsonBody(z.object({ [key]: z.uuid() } as Record<K, z.ZodUUID>)),
    responses: created(schema, 400, 401, 403, 404, 409),
  });

/** What the caller has (its `schema`, often a list): nothing to send, the caller's token names it. */
export const callersOwn = <P extends string, S extends z.ZodType>(
  contract: Contract,
  path: P,
  summary: string,
  schema: S,
) => contract("get", path, { summary, responses: ok(schema, 401, 403) });

/** Every item, for services: take/skip over `schema`, a page or a list (the catalogue, crates, rooms, profiles). */
export const allForServices = <P extends string, S extends z.ZodType>(
  contract: Contract,
  path: P,
  summary: string,
  schema: S,
) =>
  contract("get", path, {
    summary,
    tags: ["Service"],
    request: {
      query: z.object({ take: z.coerce.number().int().min(1).max(1000).default(100), skip: Offset }),
    },
    responses: ok(schema, 400, 401, 403),
  });

/** The handler of an `allForServices` route `R`: for services only, answers `all` (the rows `take` and `skip` name). */
export const allForServicesHandler = <R extends RouteConfig>(
  all: (db: Db, take: number, skip: number) => Promise<AnswerOf<R, 200>>,
) =>
  (async (c: Context<AppEnv, string, { out: { query: { take: number; skip: number } } }>) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    return c.json(await all(c.var.deps.db, take, skip), 200);
  }) as unknown as AppRouteHandler<R>;

/** Staff's list of `item`s in the nestjsx/crud query syntax, a page named `pageName`. */
export const adminCrudList = <P extends string, S extends z.ZodType>(
  contract: Contract,
  path: P,
  summary: string,
  item: S,
  pageName: string,
) =>
  contract("get", path, {
    summary,
    tags: ["Admin"],
    request: { query: CrudQuerySchema },
    responses: ok(crudPageSchema(item).openapi(pageName), 400, 401, 403),
  });

/** Staff's view of one `item` by its `{id}`, with the crud list's fields and join options. */
export const adminCrudItem = <P extends string, S extends z.ZodType>(
  contract: Contract,
  path: P,
  summary: string,
  item: S,
) =>
  contract("get", path, {
    summary,
    tags: ["Admin"],
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: ok(item, 400, 401, 403, 404),
  });

/** One item anyone may read, by the `{id}` uuid its path names: `schema`, or 400, 404. */
export const publicItem = <P extends string, S extends z.ZodType>(
  contract: Contract,
  path: P,
  summary: string,
  schema: S,
) => contract("get", path, { summary, request: { params: UuidParam }, responses: ok(schema, 400, 404) });

/** One item by the key its path names (by `params`; the `{id}` uuid unless said), answered with `schema`. */
export const oneItem = <P extends string, S extends z.ZodType, Q extends PathParams = typeof UuidParam>(
  contract: Contract,
  path: P,
  summary: string,
  schema: S,
  params: Q = UuidParam as unknown as Q,
) => contract("get", path, { summary, request: { params }, responses: ok(schema, 400, 401, 403, 404) });
