import { adminHandlers } from "../../lib/admin-resource.ts";
import { requireService, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import * as routes from "./seasons.routes.ts";
import {
  adjacentSeason,
  awardPoints as award,
  createSeason as createRow,
  currentStatus,
  lifetimePoints as lifetime,
  lifetimeEntry,
  listSeasons as listRows,
  rankingPage,
  runningSeason,
  seasonByName,
  seasonOrCurrent,
  seasons,
  seasonView,
  statuses,
  updateSeason as updateRow,
} from "./seasons.ts";

const admin = adminHandlers({ view: seasonView, find: seasons.find });

export const createSeason = admin.create(routes.createSeason, createRow);
export const updateSeason = admin.update(routes.updateSeason, updateRow);
export const deleteSeason = admin.remove(routes.deleteSeason, seasons.remove);
export const adminDeleteSeason = admin.remove(routes.adminDeleteSeason, seasons.remove);
export const listSeasons = admin.staffList(routes.listSeasons, listRows);
export const getSeason = admin.staffGet(routes.getSeason);

export const currentSeason: AppRouteHandler<typeof routes.currentSeason> = async (c) =>
  c.json(seasonView(await runningSeason(c.var.deps.db, c.var.deps.clock.now())), 200);

const adjacent =
  (direction: "next" | "prev"): AppRouteHandler<typeof routes.nextSeason> =>
  async (c) =>
    c.json(seasonView(await adjacentSeason(c.var.deps.db, new Date(c.req.valid("param").seasonStart), direction)), 200);
export const nextSeason = adjacent("next");
export const prevSeason = adjacent("prev");

export const awardPoints: AppRouteHandler<typeof routes.awardPoints> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  return c.json(await award(db, c.req.valid("json"), clock.now()), 200);
};

export const rankingStatuses: AppRouteHandler<typeof routes.rankingStatuses> = async (c) =>
  c.json(await statuses(c.var.deps.db, c.req.valid("param").userUuid), 200);

export const lifetimePoints: AppRouteHandler<typeof routes.lifetimePoints> = async (c) =>
  c.json(await lifetime(c.var.deps.db, c.req.valid("param").userUuid), 200);

export const ownCurrentStatus: AppRouteHandler<typeof routes.ownCurrentStatus> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  return c.json(await currentStatus(c.var.deps.db, c.var.deps.clock.now(), user.uuid), 200);
};

export const userCurrentStatus: AppRouteHandler<typeof routes.userCurrentStatus> = async (c) =>
  c.json(await currentStatus(c.var.deps.db, c.var.deps.clock.now(), c.req.valid("param").userUuid), 200);

export const seasonRanking: AppRouteHandler<typeof routes.seasonRanking> = async (c) => {
  const season = await runningSeason(c.var.deps.db, c.var.deps.clock.now());
  const { take, skip } = c.req.valid("query");
  return c.json(await rankingPage(c.var.deps.db, season, take, skip), 200);
};
export const currentSeasonRanking = seasonRanking;

export const namedSeasonRanking: AppRouteHandler<typeof routes.namedSeasonRanking> = async (c) => {
  const season = await seasonByName(c.var.deps.db, c.req.valid("param").seasonName);
  const { take, skip } = c.req.valid("query");
  return c.json(await rankingPage(c.var.deps.db, season, take, skip), 200);
};

export const allSeasonsRanking: AppRouteHandler<typeof routes.allSeasonsRanking> = async (c) => {
  const { take, skip } = c.req.valid("query");
  return c.json(await rankingPage(c.var.deps.db, null, take, skip), 200);
};

export const adminRanking: AppRouteHandler<typeof routes.adminRanking> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const { take, skip, seasonId } = c.req.valid("query");
  const { db, clock } = c.var.deps;
  const season = await seasonOrCurrent(db, seasonId, clock.now());
  return c.json(await rankingPage(db, season, take, skip), 200);
};

export const adminUserStatuses: AppRouteHandler<typeof routes.adminUserStatuses> = async (c) => {
  await requireUser(c, { roles: STAFF });
  return c.json(await statuses(c.var.deps.db, c.req.valid("param").id), 200);
};

export const adminLifetimeRanking: AppRouteHandler<typeof routes.adminLifetimeRanking> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const { take, skip } = c.req.valid("query");
  return c.json(await rankingPage(c.var.deps.db, null, take, skip), 200);
};

export const adminLifetimeEntry: AppRouteHandler<typeof routes.adminLifetimeEntry> = async (c) => {
  await requireUser(c, { roles: STAFF });
  return c.json(await lifetimeEntry(c.var.deps.db, c.req.valid("param").id), 200);
};
