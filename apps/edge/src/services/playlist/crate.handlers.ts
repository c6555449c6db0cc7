import { requireService, requireUser } from "../../lib/auth.ts";
import { allForServicesHandler } from "../../lib/contract-families.ts";
import { EXPLICIT_IN_DISCORD } from "../../lib/discord-mode.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { sqlJson } from "../../lib/sql-json.ts";
import { explicitAudioAllowed } from "../user/public.ts";
import { requireOfferedSongs } from "./brand.ts";
import type * as routes from "./crate.routes.ts";
import { callerCrate } from "./crate-access.ts";
import * as crates from "./crates.ts";
import { queueChanged } from "./live-queue.ts";

type SongRoutes = routes.CrateSongRoutes;

/** The handlers of `crateSongRoutes`: for the caller's queue or likes, or for the crate `{id}` when none is named. */
export function crateSongHandlers(special?: crates.SpecialKind) {
  const target = (id: string | undefined) => special ?? (id as string);

  const get: AppRouteHandler<SongRoutes["get"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "read");
    return c.json(await crates.crateView(c.var.deps.db, crate), 200);
  };

  const songs: AppRouteHandler<SongRoutes["songs"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "read");
    const { limit, offset } = c.req.valid("query");
    return sqlJson(c, await crates.crateSongsJson(c.var.deps.db, crate.id, limit, offset), 200);
  };

  const addSongs: AppRouteHandler<SongRoutes["addSongs"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "write");
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const songIds = body.songIds ?? [body.songId as string];
    // The songs are read once, for the brand's rule and Discord mode's (songs not in the catalogue are
    // crates.addSongs' to refuse).
    const songs = await requireOfferedSongs(c.var.deps, songIds);
    // Discord mode (lib/discord-mode.ts): no explicit song into the queue unless the profile allows explicit audio.
    if (special === "queue" && songs.some((song) => song.explicit) && !(await explicitAudioAllowed(c)))
      throw badRequest(EXPLICIT_IN_DISCORD);
    const added = await crates.addSongs(db, crate, songIds, body.position, clock.now());
    await queueChanged(c.var.deps, crate);
    const ids = new Set(added.map((a) => a.id));
    return c.json(
      (await crates.crateSongs(db, crate.id)).filter((s) => ids.has(s.crateSongUuid)),
      201,
    );
  };

  const currentPosition: AppRouteHandler<SongRoutes["currentPosition"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "write");
    const { db, clock } = c.var.deps;
    const updated = await crates.setCurrentPosition(db, crate, c.req.valid("json").position, clock.now());
    await queueChanged(c.var.deps, crate);
    return c.json(await crates.crateView(db, updated), 200);
  };

  const removeSong: AppRouteHandler<SongRoutes["removeSong"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "write");
    await crates.removeSong(c.var.deps.db, crate, c.req.valid("param").crateSongUuid, c.var.deps.clock.now());
    await queueChanged(c.var.deps, crate);
    return c.body(null, 204);
  };

  const moveSong: AppRouteHandler<SongRoutes["moveSong"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "write");
    const { db, clock } = c.var.deps;
    await crates.moveSong(db, crate, c.req.valid("param").crateSongUuid, c.req.valid("json").position, clock.now());
    await queueChanged(c.var.deps, crate);
    return c.json(await crates.crateSongs(db, crate.id), 200);
  };

  const shuffle: AppRouteHandler<SongRoutes["shuffle"]> = async (c) => {
    const { crate } = await callerCrate(c, target(c.req.param("id")), "write");
    const { db, clock } = c.var.deps;
    await crates.shuffleSongs(db, crate, clock.now());
    await queueChanged(c.var.deps, crate);
    return c.json(await crates.crateSongs(db, crate.id), 200);
  };

  return { get, songs, addSongs, currentPosition, removeSong, moveSong, shuffle };
}

const emptyCrate =
  (special: crates.SpecialKind): AppRouteHandler<typeof routes.emptyQueue> =>
  async (c) => {
    const { crate } = await callerCrate(c, special, "write");
    await crates.clearSongs(c.var.deps.db, crate, c.var.deps.clock.now());
    await queueChanged(c.var.deps, crate);
    return c.body(null, 204);
  };

export const queue = crateSongHandlers("queue");
export const emptyQueue = emptyCrate("queue");
export const likes = crateSongHandlers("likes");
export const emptyLikes = emptyCrate("likes");

export const createCrate: AppRouteHandler<typeof routes.createCrate> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const crate = await crates.createCrate(db, user.uuid, c.req.valid("json"), clock.now());
  return c.json(await crates.crateView(db, crate), 201);
};

export const ownCrates: AppRouteHandler<typeof routes.ownCrates> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { limit, offset } = c.req.valid("query");
  return c.json(await crates.listCrates(c.var.deps.db, user.uuid, limit, offset), 200);
};

export const userCratesForService: AppRouteHandler<typeof routes.userCratesForService> = async (c) => {
  await requireService(c);
  return c.json(await crates.listCrates(c.var.deps.db, c.req.valid("param").userUuid, 1000, 0, "all"), 200);
};

export const userCrates: AppRouteHandler<typeof routes.userCrates> = async (c) => {
  await requireUser(c, { types: ["user", "bot"] });
  const { limit, offset } = c.req.valid("query");
  return c.json(await crates.listCrates(c.var.deps.db, c.req.valid("param").userUuid, limit, offset), 200);
};

export const allCrates = allForServicesHandler<typeof routes.allCrates>(crates.allCrates);

export const songsByShortId: AppRouteHandler<typeof routes.songsByShortId> = async (c) => {
  await requireService(c);
  return sqlJson(c, await crates.songsOfShortId(c.var.deps.db, c.req.valid("param").crateShortId), 200);
};

export const byId = crateSongHandlers();

export const updateCrate: AppRouteHandler<typeof routes.updateCrate> = async (c) => {
  const { crate } = await callerCrate(c, c.req.valid("param").id, "write");
  const { db, clock } = c.var.deps;
  const updated = await crates.updateCrate(db, crate, c.req.valid("json"), clock.now());
  return c.json(await crates.crateView(db, updated), 200);
};

export const deleteCrate: AppRouteHandler<typeof routes.deleteCrate> = async (c) => {
  const { crate } = await callerCrate(c, c.req.valid("param").id, "write");
  await crates.deleteCrate(c.var.deps.db, crate);
  return c.body(null, 204);
};

export const copyCrate: AppRouteHandler<typeof routes.copyCrate> = async (c) => {
  const { user, crate } = await callerCrate(c, c.req.valid("param").id, "read");
  const { db, clock } = c.var.deps;
  return c.json(await crates.crateView(db, await crates.copyCrate(db, crate, user.uuid, clock.now())), 201);
};
