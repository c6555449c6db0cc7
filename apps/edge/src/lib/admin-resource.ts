import type { Db } from "@booth/db";
import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ADMINS, requireUser, STAFF } from "./auth.ts";
import type { AppEnv } from "./context.ts";
import {
  type AnswerOf,
  type AppRouteHandler,
  type BodyOf,
  contracts,
  created,
  jsonBody,
  noContentOr,
  ok,
  UuidParam,
} from "./openapi.ts";

/*
 * An admin catalogue (token bundles, consumables, products, seasons, avatars...): items that admins create, change and
 * delete, and that anyone (or staff) lists and reads. `adminContracts` writes the standard contracts of one, and
 * `adminHandlers` their handlers over the domain module's functions; what a catalogue does besides stays hand-written.
 */

type KeyName<Key extends z.ZodObject> = keyof Key["shape"] & string;

/**
 * The standard contracts of the catalogue at `path` (its items at `path/{key}`), listed under `tags`: each method
 * takes the contract's summary and, where the domain may refuse with them, its further error codes (409...).
 */
export function adminContracts<
  const Path extends string,
  Item extends z.ZodType,
  Body extends z.ZodType,
  Patch extends z.ZodType,
  Key extends z.ZodObject = typeof UuidParam,
>(spec: { tags: string[]; path: Path; item: Item; body: Body; patch: Patch; key?: Key }) {
  const { authed, route } = contracts(spec.tags);
  const { path, item } = spec;
  const key = (spec.key ?? UuidParam) as Key;
  const one = `${path}/{${Object.keys(key.shape)[0]}}` as `${Path}/{${KeyName<Key>}}`;
  return {
    /** POST path (admins): answers the item made. */
    create: (summary: string, ...codes: number[]) =>
      authed("post", path, {
        summary,
        request: jsonBody(spec.body),
        responses: created(item, 400, 401, 403, ...codes),
      }),
    /** GET path (anyone), filtered and paged by `query`. */
    list: <Query extends z.ZodObject>(summary: string, query: Query) =>
      route("get", path, { summary, request: { query }, responses: ok(z.array(item), 400) }),
    /** GET path (staff): every item. */
    staffList: (summary: string) => authed("get", path, { summary, responses: ok(z.array(item), 401, 403) }),
    /** GET path/count (anyone): how many match `query`, answered as the schema `name`. */
    count: <Query extends z.ZodObject>(summary: string, query: Query, name: string) =>
      route("get", `${path}/count`, {
        summary,
        request: { query },
        responses: ok(z.object({ count: z.number().int() }).openapi(name), 400),
      }),
    /** GET path/{key} (anyone). */
    get: (summary: string) => route("get", one, { summary, request: { params: key }, responses: ok(item, 400, 404) }),
    /** GET path/{key} (staff). */
    staffGet: (summary: string) =>
      authed("get", one, { summary, request: { params: key }, responses: ok(item, 400, 401, 403, 404) }),
    /** PATCH path/{key} (admins) with the `patch` body: answers the changed item. */
    update: (summary: string, ...codes: number[]) =>
      authed("patch", one, {
        summary,
        request: { params: key, ...jsonBody(spec.patch) },
        responses: ok(item, 400, 401, 403, 404, ...codes),
      }),
    /** DELETE path/{key} (admins), or POST where the spec's clients delete with POST. */
    remove: <M extends "delete" | "post">(method: M, summary: string, ...codes: number[]) =>
      authed(method, one, { summary, request: { params: key }, responses: noContentOr(400, 401, 403, 404, ...codes) }),
  };
}

/** The validated query of route `R`. */
type QueryOf<R extends RouteConfig> = R["request"] extends { query?: infer Q extends z.ZodType } ? z.output<Q> : never;
/** An extra argument the call lacks (a type error there) when `Given` is not what route `R` answers with `Code`. */
type Answers<R extends RouteConfig, Code extends number, Given> = [Given] extends [AnswerOf<R, Code>]
  ? []
  : [error: `the view does not fit the route's ${Code} answer`];

// Inside the generic handlers the route is any route: what each reads and answers is checked where it is made.
type AnyContext = Context<AppEnv, string, { out: { json: never; query: never; param: Record<string, string> } }>;
const handler = <R extends RouteConfig>(run: (c: AnyContext) => Promise<Response>) =>
  run as unknown as AppRouteHandler<R>;

/** The value of the one path parameter of `route` (an item's key: its id or slug) in a request. */
function keyOf(route: RouteConfig) {
  const params = route.request?.params as z.ZodObject | undefined;
  const [name = "id"] = Object.keys(params?.shape ?? {});
  return (c: AnyContext) => c.req.valid("param")[name] as string;
}

/**
 * The standard handlers of an admin catalogue whose items are `Row`s, shown as `view` and found by `find` (a 404 when
 * there is none) by the key in the contract's path. Each method takes the contract it serves (its body, query and
 * answer are checked against the domain function and the view) and the domain function that does the work.
 */
export function adminHandlers<Row, View>(domain: {
  view: (row: Row) => View;
  find: (db: Db, key: string) => Promise<Row>;
}) {
  const { view, find } = domain;
  return {
    create: <R extends RouteConfig>(
      _route: R,
      make: (db: Db, body: BodyOf<R>, now: Date) => Promise<Row>,
      ..._fits: Answers<R, 201, View>
    ) =>
      handler<R>(async (c) => {
        await requireUser(c, { roles: ADMINS });
        const { db, clock } = c.var.deps;
        return c.json(view(await make(db, c.req.valid("json"), clock.now())), 201);
      }),
    list: <R extends RouteConfig>(
      _route: R,
      rows: (db: Db, query: QueryOf<R>) => Promise<Row[]>,
      ..._fits: Answers<R, 200, View[]>
    ) => handler<R>(async (c) => c.json((await rows(c.var.deps.db, c.req.valid("query"))).map(view), 200)),
    staffList: <R extends RouteConfig>(
      _route: R,
      rows: (db: Db) => Promise<Row[]>,
      ..._fits: Answers<R, 200, View[]>
    ) =>
      handler<R>(async (c) => {
        await requireUser(c, { roles: STAFF });
        return c.json((await rows(c.var.deps.db)).map(view), 200);
      }),
    count: <R extends RouteConfig>(_route: R, count: (db: Db, query: QueryOf<R>) => Promise<number>) =>
      handler<R>(async (c) => c.json({ count: await count(c.var.deps.db, c.req.valid("query")) }, 200)),
    get: <R extends RouteConfig>(route: R, ..._fits: Answers<R, 200, View>) => {
      const key = keyOf(route);
      return handler<R>(async (c) => c.json(view(await find(c.var.deps.db, key(c))), 200));
    },
    staffGet: <R extends RouteConfig>(route: R, ..._fits: Answers<R, 200, View>) => {
      const key = keyOf(route);
      return handler<R>(async (c) => {
        await requireUser(c, { roles: STAFF });
        return c.json(view(await find(c.var.deps.db, key(c))), 200);
      });
    },
    update: <R extends RouteConfig>(
      route: R,
      change: (db: Db, key: string, patch: BodyOf<R>, now: Date) => Promise<Row>,
      ..._fits: Answers<R, 200, View>
    ) => {
      const key = keyOf(route);
      return handler<R>(async (c) => {
        await requireUser(c, { roles: ADMINS });
        const { db, clock } = c.var.deps;
        return c.json(view(await change(db, key(c), c.req.valid("json"), clock.now())), 200);
      });
    },
    remove: <R extends RouteConfig>(route: R, remove: (db: Db, key: string) => Promise<void>) => {
      const key = keyOf(route);
      return handler<R>(async (c) => {
        await requireUser(c, { roles: ADMINS });
        await remove(c.var.deps.db, key(c));
        return c.body(null, 204);
      });
    },
  };
}
