import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, Int, json, jsonBody, noContent, Offset, UuidParam } from "../../lib/openapi.ts";
import { CrateSchema, CrateSongSchema, type SpecialKind } from "./crates.ts";

const CrateSongParams = z.object({ crateSongUuid: z.uuid().openapi({ param: { name: "crateSongUuid", in: "path" } }) });
const Paging = z.object({
  limit: z.coerce.number().int().min(1).max(5000).default(5000),
  offset: Offset,
});
const AddBody = z
  .object({
    songId: z.uuid().optional(),
    songIds: z.array(z.uuid()).min(1).max(500).optional(),
    position: Int.min(0).optional(),
  })
  .refine((b) => !!b.songId !== !!b.songIds, { message: "give songId or songIds", path: ["songId"] });

/**
 * The song operations every crate has, for a user's crate by id and for their queue and likes. `base` is the path;
 * `special` names the special crate, or is absent for `/crate/{id}`.
 */
export function crateSongRoutes(base: string, special?: SpecialKind) {
  const tags = [special ? `Crates: ${special}` : "Crates"];
  const params = special ? {} : { params: UuidParam };
  const entryParams = special ? CrateSongParams : UuidParam.extend(CrateSongParams.shape);
  const what = special ? `the caller's ${special} crate` : "crate {id}";
  return {
    get: createRoute({
      method: "get",
      path: base,
      tags,
      summary: `Get ${what}`,
      security: bearer,
      request: { ...params },
      responses: { 200: json(CrateSchema), ...errors(400, 401, 403, 404) },
    }),
    songs: createRoute({
      method: "get",
      path: `${base}/songs`,
      tags,
      summary: `The songs of ${what}, in order`,
      security: bearer,
      request: { ...params, query: Paging },
      responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
    }),
    addSongs: createRoute({
      method: "post",
      path: `${base}/songs`,
      tags,
      summary: `Add songs to ${what} (at the end, or at a position)`,
      security: bearer,
      request: { ...params, ...jsonBody(AddBody) },
      responses: { 201: json(z.array(CrateSongSchema), "Created"), ...errors(400, 401, 403, 404, 409) },
    }),
    currentPosition: createRoute({
      method: "put",
      path: `${base}/current-position`,
      tags,
      summary: `Set the position of the song playing next in ${what}`,
      security: bearer,
      request: { ...params, ...jsonBody(z.object({ position: Int.min(0) })) },
      responses: { 200: json(CrateSchema), ...errors(400, 401, 403, 404) },
    }),
    removeSong: createRoute({
      method: "delete",
      path: `${base}/songs/{crateSongUuid}`,
      tags,
      summary: `Remove a song from ${what}`,
      security: bearer,
      request: { params: entryParams },
      responses: { ...noContent, ...errors(400, 401, 403, 404) },
    }),
    moveSong: createRoute({
      method: "put",
      path: `${base}/songs/{crateSongUuid}/position`,
      tags,
      summary: `Move a song of ${what} to a position`,
      security: bearer,
      request: { params: entryParams, ...jsonBody(z.object({ position: Int.min(0) })) },
      responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
    }),
    shuffle: createRoute({
      method: "post",
      path: `${base}/songs/shuffle`,
      tags,
      summary: `Shuffle ${what}`,
      security: bearer,
      request: { ...params },
      responses: { 200: json(z.array(CrateSongSchema)), ...errors(400, 401, 403, 404) },
    }),
  };
}
export type CrateSongRoutes = ReturnType<typeof crateSongRoutes>;

/** Emptying a special crate (a playlist is deleted instead). */
const emptyCrate = (base: string, special: SpecialKind) =>
  createRoute({
    method: "delete",
    path: `${base}/songs`,
    tags: [`Crates: ${special}`],
    summary: `Empty the caller's ${special} crate`,
    security: bearer,
    responses: { ...noContent, ...errors(401, 403) },
  });

// Special paths first (see index.ts), so "/crate/special/queue" never reads as a crate id.
export const queue = crateSongRoutes("/crate/special/queue", "queue");
export const emptyQueue = emptyCrate("/crate/special/queue", "queue");
export const likes = crateSongRoutes("/crate/special/likes", "likes");
export const emptyLikes = emptyCrate("/crate/special/likes", "likes");

// ---- the caller's playlists

const CrateBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(1000).nullable().optional(),
});
const CratePage = z.object({ data: z.array(CrateSchema), total: z.number().int() }).openapi("CratePage");
const UserParam = z.object({ userUuid: z.uuid().openapi({ param: { name: "userUuid", in: "path" } }) });
const CratePaging = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(32),
  offset: Offset,
});

export const createCrate = createRoute({
  method: "post",
  path: "/crate",
  tags: ["Crates"],
  summary: 'Create a crate (named "New Playlist #N" when no name is given)',
  security: bearer,
  request: jsonBody(CrateBody),
  responses: { 201: json(CrateSchema, "Created"), ...errors(400, 401, 403) },
});

export const ownCrates = createRoute({
  method: "get",
  path: "/crate/user",
  tags: ["Crates"],
  summary: "The caller's crates, newest first",
  security: bearer,
  request: { query: CratePaging },
  responses: { 200: json(CratePage), ...errors(400, 401, 403) },
});

export const userCratesForService = createRoute({
  method: "get",
  path: "/crate/user/service/{userUuid}",
  tags: ["Service"],
  summary: "Every crate of a user, the queue and likes included (services)",
  security: bearer,
  request: { params: UserParam },
  responses: { 200: json(CratePage), ...errors(400, 401, 403) },
});

export const userCrates = createRoute({
  method: "get",
  path: "/crate/user/{userUuid}",
  tags: ["Crates"],
  summary: "Another user's crates (their playlists; never their queue or likes)",
  security: bearer,
  request: { params: UserParam, query: CratePaging },
  responses: { 200: json(CratePage), ...errors(400, 401, 403) },
});

export const allCrates = createRoute({
  method: "get",
  path: "/crate/service/all-crates",
  tags: ["Service"],
  summary: "Every playlist, oldest first (services)",
  security: bearer,
  request: {
    query: z.object({
      take: z.coerce.number().int().min(1).max(1000).default(100),
      skip: Offset,
    }),
  },
  responses: { 200: json(CratePage), ...errors(400, 401, 403) },
});

export const songsByShortId = createRoute({
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
});

export const byId = crateSongRoutes("/crate/{id}");

export const updateCrate = createRoute({
  method: "patch",
  path: "/crate/{id}",
  tags: ["Crates"],
  summary: "Rename or describe a crate",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(CrateBody) },
  responses: { 200: json(CrateSchema), ...errors(400, 401, 403, 404) },
});

export const deleteCrate = createRoute({
  method: "delete",
  path: "/crate/{id}",
  tags: ["Crates"],
  summary: "Delete a crate",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const copyCrate = createRoute({
  method: "put",
  path: "/crate/{id}/copy",
  tags: ["Crates"],
  summary: "Copy a crate (one's own or another user's playlist) into a new crate of the caller",
  security: bearer,
  request: { params: UuidParam },
  responses: { 201: json(CrateSchema, "Created"), ...errors(400, 401, 403, 404) },
});
