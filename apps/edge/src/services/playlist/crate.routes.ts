import { schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { requireService, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { shortId } from "../../lib/ids.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import {
  addSongs,
  CrateSchema,
  CrateSongSchema,
  clearSongs,
  crateSongs,
  crateView,
  moveSong,
  nextPlaylistName,
  removeSong,
  resolveCrate,
  type SpecialKind,
  shuffleSongs,
} from "./crates.ts";
import { queueChanged } from "./live-queue.ts";

export const crateRoutes = createRouter();

const CrateSongParams = z.object({ crateSongUuid: z.uuid().openapi({ param: { name: "crateSongUuid", in: "path" } }) });
const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(5000).default(5000),
  offset: z.coerce.number().int().min(0).default(0),
});
const AddBody = z
  .object({
    songId: z.uuid().optional(),
    songIds: z.array(z.uuid()).min(1).max(500).optional(),
    position: z.number().int().min(0).optional(),
  })
  .refine((b) => !!b.songId !== !!b.songIds, { message: "give songId or songIds", path: ["songId"] });

/**
 * The song operations every crate has, registered for a user's crate by id and for their queue and likes.
 * `base` is the path; `special` names the special crate, or is absent for `/crate/{id}`.
 */
function songRoutes(base: string, special?: SpecialKind) {
  const tags = [special ? `Crates: ${special}` : "Crates"];
  const params = special ? {} : { params: UuidParam };
  const targetOf = (c: Context<AppEnv>) => special ?? (c.req.param("id") as string);
  const what = special ? `the caller's ${special} crate` : "crate {id}";

  crateRoutes.openapi(
    createRoute({
      method: "get",
      path: base,
      tags,
      summary: `Get ${what}`,
      security: bearer,
      request: { ...params },
      responses: { 200: json(CrateSchema), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "read");
      return c.json(await crateView(c.var.deps.db, crate), 200);
    },
  );

  crateRoutes.openapi(
    createRoute({
      method: "get",
      path: `${base}/songs`,
      tags,
      summary: `The songs of ${what}, in order`,
      security: bearer,
      request: { ...params, query: Paging },
      responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "read");
      const { limit, offset } = c.req.valid("query");
      return c.json(await crateSongs(c.var.deps.db, crate.id, limit, offset), 200);
    },
  );

  crateRoutes.openapi(
    createRoute({
      method: "post",
      path: `${base}/songs`,
      tags,
      summary: `Add songs to ${what} (at the end, or at a position)`,
      security: bearer,
      request: { ...params, ...jsonBody(AddBody) },
      responses: { 201: json(z.array(CrateSongSchema), "Created"), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "write");
      const body = c.req.valid("json");
      const { db, clock } = c.var.deps;
      const added = await addSongs(db, crate, body.songIds ?? [body.songId as string], body.position, clock.now());
      await queueChanged(c.var.deps, crate);
      const ids = new Set(added.map((a) => a.id));
      return c.json(
        (await crateSongs(db, crate.id)).filter((s) => ids.has(s.crateSongUuid)),
        201,
      );
    },
  );

  crateRoutes.openapi(
    createRoute({
      method: "put",
      path: `${base}/current-position`,
      tags,
      summary: `Set the position of the song playing next in ${what}`,
      security: bearer,
      request: { ...params, ...jsonBody(z.object({ position: z.number().int().min(0) })) },
      responses: { 200: json(CrateSchema), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "write");
      const { db, clock } = c.var.deps;
      const { position } = c.req.valid("json");
      const songs = await db.$count(schema.crateSongs, eq(schema.crateSongs.crateId, crate.id));
      if (position > Math.max(songs - 1, 0)) throw badRequest(["position: is past the end of the crate"]);
      const [updated] = await db
        .update(schema.crates)
        .set({ currentPosition: position, updatedAt: clock.now() })
        .where(eq(schema.crates.id, crate.id))
        .returning();
      await queueChanged(c.var.deps, crate);
      return c.json(await crateView(db, updated ?? crate), 200);
    },
  );

  crateRoutes.openapi(
    createRoute({
      method: "delete",
      path: `${base}/songs/{crateSongUuid}`,
      tags,
      summary: `Remove a song from ${what}`,
      security: bearer,
      request: { params: special ? CrateSongParams : UuidParam.extend(CrateSongParams.shape) },
      responses: { ...noContent, ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "write");
      await removeSong(c.var.deps.db, crate, c.req.valid("param").crateSongUuid, c.var.deps.clock.now());
      await queueChanged(c.var.deps, crate);
      return c.body(null, 204);
    },
  );

  crateRoutes.openapi(
    createRoute({
      method: "put",
      path: `${base}/songs/{crateSongUuid}/position`,
      tags,
      summary: `Move a song of ${what} to a position`,
      security: bearer,
      request: {
        params: special ? CrateSongParams : UuidParam.extend(CrateSongParams.shape),
        ...jsonBody(z.object({ position: z.number().int().min(0) })),
      },
      responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "write");
      const { db, clock } = c.var.deps;
      await moveSong(db, crate, c.req.valid("param").crateSongUuid, c.req.valid("json").position, clock.now());
      await queueChanged(c.var.deps, crate);
      return c.json(await crateSongs(db, crate.id), 200);
    },
  );

  crateRoutes.openapi(
    createRoute({
      method: "post",
      path: `${base}/songs/shuffle`,
      tags,
      summary: `Shuffle ${what}`,
      security: bearer,
      request: { ...params },
      responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { crate } = await resolveCrate(c, targetOf(c), "write");
      const { db, clock } = c.var.deps;
      await shuffleSongs(db, crate, clock.now());
      await queueChanged(c.var.deps, crate);
      return c.json(await crateSongs(db, crate.id), 200);
    },
  );

  if (special)
    crateRoutes.openapi(
      createRoute({
        method: "delete",
        path: `${base}/songs`,
        tags,
        summary: `Empty ${what}`,
        security: bearer,
        responses: { ...noContent, ...errors(401, 403) },
      }),
      async (c) => {
        const { crate } = await resolveCrate(c, special, "write");
        await clearSongs(c.var.deps.db, crate, c.var.deps.clock.now());
        await queueChanged(c.var.deps, crate);
        return c.body(null, 204);
      },
    );
}

// Special paths first, so "/crate/special/queue" never reads as a crate id.
songRoutes("/crate/special/queue", "queue");
songRoutes("/crate/special/likes", "likes");

// ---- the caller's playlists

const CrateBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(1000).nullable().optional(),
});
const CratePage = z.object({ data: z.array(CrateSchema), total: z.number().int() }).openapi("CratePage");

crateRoutes.openapi(
  createRoute({
    method: "post",
    path: "/crate",
    tags: ["Crates"],
    summary: 'Create a crate (named "New Playlist #N" when no name is given)',
    security: bearer,
    request: jsonBody(CrateBody),
    responses: { 201: json(CrateSchema, "Created"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const crate = await db.transaction(async (tx) => {
      // Serialise a user's crate creation so two unnamed crates never get the same number.
      await tx
        .select({ uuid: schema.users.uuid })
        .from(schema.users)
        .where(eq(schema.users.uuid, user.uuid))
        .for("update");
      const name = body.name ?? (await nextPlaylistName(tx, user.uuid));
      const [row] = await tx
        .insert(schema.crates)
        .values({
          userUuid: user.uuid,
          name,
          description: body.description ?? null,
          shortId: shortId(),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row;
    });
    if (!crate) throw new Error("crate insert returned nothing");
    return c.json(await crateView(db, crate), 201);
  },
);

crateRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/user",
    tags: ["Crates"],
    summary: "The caller's crates, newest first",
    security: bearer,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(32),
        offset: z.coerce.number().int().min(0).default(0),
      }),
    },
    responses: { 200: json(CratePage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const { limit, offset } = c.req.valid("query");
    return c.json(await listCrates(c, user.uuid, limit, offset), 200);
  },
);

async function listCrates(
  c: Context<AppEnv>,
  userUuid: string,
  limit: number,
  offset: number,
  kinds: "default" | "all" = "default",
) {
  const { db } = c.var.deps;
  const where = and(
    eq(schema.crates.userUuid, userUuid),
    kinds === "default" ? eq(schema.crates.kind, "default") : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(schema.crates)
      .where(where)
      .orderBy(desc(schema.crates.createdAt), desc(schema.crates.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(schema.crates).where(where),
  ]);
  return { data: await Promise.all(rows.map((r) => crateView(db, r))), total: total?.n ?? 0 };
}

crateRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/user/service/{userUuid}",
    tags: ["Service"],
    summary: "Every crate of a user, the queue and likes included (services)",
    security: bearer,
    request: { params: z.object({ userUuid: z.uuid().openapi({ param: { name: "userUuid", in: "path" } }) }) },
    responses: { 200: json(CratePage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    return c.json(await listCrates(c, c.req.valid("param").userUuid, 1000, 0, "all"), 200);
  },
);

crateRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/user/{userUuid}",
    tags: ["Crates"],
    summary: "Another user's crates (their playlists; never their queue or likes)",
    security: bearer,
    request: {
      params: z.object({ userUuid: z.uuid().openapi({ param: { name: "userUuid", in: "path" } }) }),
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(32),
        offset: z.coerce.number().int().min(0).default(0),
      }),
    },
    responses: { 200: json(CratePage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { types: ["user", "bot"] });
    const { limit, offset } = c.req.valid("query");
    return c.json(await listCrates(c, c.req.valid("param").userUuid, limit, offset), 200);
  },
);

crateRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/service/all-crates",
    tags: ["Service"],
    summary: "Every playlist, oldest first (services)",
    security: bearer,
    request: {
      query: z.object({
        take: z.coerce.number().int().min(1).max(1000).default(100),
        skip: z.coerce.number().int().min(0).default(0),
      }),
    },
    responses: { 200: json(CratePage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireService(c);
    const { take, skip } = c.req.valid("query");
    const { db } = c.var.deps;
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(schema.crates)
        .orderBy(asc(schema.crates.createdAt), asc(schema.crates.id))
        .limit(take)
        .offset(skip),
      db.$count(schema.crates),
    ]);
    return c.json({ data: await Promise.all(rows.map((r) => crateView(db, r))), total }, 200);
  },
);

crateRoutes.openapi(
  createRoute({
    method: "get",
    path: "/crate/service/{crateShortId}/songs",
    tags: ["Service"],
    summary: "The songs of a crate by its short id (services)",
    security: bearer,
    request: {
      params: z.object({
        crateShortId: z
          .string()
          .min(1)
          .max(32)
          .openapi({ param: { name: "crateShortId", in: "path" } }),
      }),
    },
    responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    const { db } = c.var.deps;
    const [crate] = await db
      .select()
      .from(schema.crates)
      .where(eq(schema.crates.shortId, c.req.valid("param").crateShortId));
    if (!crate) throw notFound("Crate not found.");
    return c.json(await crateSongs(db, crate.id), 200);
  },
);

songRoutes("/crate/{id}");

crateRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/crate/{id}",
    tags: ["Crates"],
    summary: "Rename or describe a crate",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(CrateBody) },
    responses: { 200: json(CrateSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { crate } = await resolveCrate(c, c.req.valid("param").id, "write");
    if (crate.kind !== "default") throw forbidden("The queue and likes crates cannot be renamed.");
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const [updated] = await db
      .update(schema.crates)
      .set({
        ...(body.name ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        updatedAt: clock.now(),
      })
      .where(eq(schema.crates.id, crate.id))
      .returning();
    return c.json(await crateView(db, updated ?? crate), 200);
  },
);

crateRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/crate/{id}",
    tags: ["Crates"],
    summary: "Delete a crate",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { crate } = await resolveCrate(c, c.req.valid("param").id, "write");
    if (crate.kind !== "default") throw forbidden("The queue and likes crates cannot be deleted; empty them instead.");
    await c.var.deps.db.delete(schema.crates).where(eq(schema.crates.id, crate.id));
    return c.body(null, 204);
  },
);

crateRoutes.openapi(
  createRoute({
    method: "put",
    path: "/crate/{id}/copy",
    tags: ["Crates"],
    summary: "Copy a crate (one's own or another user's playlist) into a new crate of the caller",
    security: bearer,
    request: { params: UuidParam },
    responses: { 201: json(CrateSchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { user, crate } = await resolveCrate(c, c.req.valid("param").id, "read");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const copy = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schema.crates)
        .values({
          userUuid: user.uuid,
          name: `${crate.name} (copy)`.slice(0, 100),
          description: crate.description,
          shortId: shortId(),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error("crate insert returned nothing");
      const entries = await tx
        .select()
        .from(schema.crateSongs)
        .where(eq(schema.crateSongs.crateId, crate.id))
        .orderBy(asc(schema.crateSongs.position));
      if (entries.length)
        await tx
          .insert(schema.crateSongs)
          .values(entries.map((e) => ({ crateId: row.id, songId: e.songId, position: e.position, addedAt: now })));
      return row;
    });
    return c.json(await crateView(db, copy), 201);
  },
);
