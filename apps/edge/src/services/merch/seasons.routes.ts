import { z } from "@hono/zod-openapi";
import { adminContracts } from "../../lib/admin-resource.ts";
import { contracts, DateTime, jsonBody, Offset, ok, UuidParam, uuidParams } from "../../lib/openapi.ts";

const { authed, route } = contracts(["Seasons"]);

const SeasonSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    start: z.string(),
    end: z.string(),
    handledAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Season");
const RankingEntrySchema = z
  .object({
    rank: z.number().int(),
    userUuid: z.uuid(),
    seasonId: z.uuid().nullable(),
    balance: z.number().int(),
    nickname: z.string().nullable(),
    avatarId: z.string().nullable(),
  })
  .openapi("RankingEntry");
const RankingPage = z
  .object({ season: SeasonSchema.nullable(), data: z.array(RankingEntrySchema), total: z.number().int() })
  .openapi("RankingPage");
const TakeSkip = z.object({
  take: z.coerce.number().int().min(1).max(100).default(50),
  skip: Offset,
});

// ---- seasons

const SeasonBody = z.object({
  name: z.string().trim().min(1).max(100),
  start: DateTime,
  end: DateTime,
});

const catalogue = { tags: ["Seasons"], item: SeasonSchema, body: SeasonBody, patch: SeasonBody.partial() };
const points = adminContracts({ ...catalogue, path: "/points/season" });
const admin = adminContracts({ ...catalogue, path: "/admin/seasons" });

export const createSeason = points.create("Create a season (admins); seasons may not overlap", 409);
export const updateSeason = points.update("Change a season (admins)", 409);
const DELETE_SEASON = "Delete a season and its points (admins)";
export const deleteSeason = points.remove("delete", DELETE_SEASON);
export const adminDeleteSeason = admin.remove("delete", DELETE_SEASON);
export const listSeasons = admin.staffList("Every season, newest first (staff)");
export const getSeason = admin.staffGet("One season (staff)");

export const currentSeason = route("get", "/seasons/current", {
  summary: "The season running now",
  responses: ok(SeasonSchema, 404),
});

const StartParam = z.object({
  seasonStart: DateTime.openapi({ param: { name: "seasonStart", in: "path" } }),
});
const adjacent = (path: "/points/next-season/{seasonStart}" | "/points/prev-season/{seasonStart}", after: boolean) =>
  route("get", path, {
    summary: `The season ${after ? "after" : "before"} the one starting at a time`,
    request: { params: StartParam },
    responses: ok(SeasonSchema, 400, 404),
  });
export const nextSeason = adjacent("/points/next-season/{seasonStart}", true);
export const prevSeason = adjacent("/points/prev-season/{seasonStart}", false);

// ---- points

export const awardPoints = authed("post", "/points/service", {
  summary: "Award points in the current season (services: the live room when a song ends); a play's points count once",
  tags: ["Points"],
  request: jsonBody(
    z.object({
      userUuid: z.uuid(),
      points: z.number().int().min(1).max(10_000),
      reason: z.string().max(200).optional(),
      roomUuid: z.uuid().optional(),
      awardKey: z.string().min(1).max(200).optional(),
    }),
  ),
  responses: ok(
    z.object({ awarded: z.boolean(), seasonId: z.uuid(), balance: z.number().int() }).openapi("PointsAwarded"),
    400,
    401,
    403,
    404,
  ),
});

const StatusSchema = z
  .object({ seasonId: z.uuid(), seasonName: z.string(), balance: z.number().int() })
  .openapi("RankingStatus");
const UserParam = uuidParams("userUuid");

export const rankingStatuses = route("get", "/points/ranking-status/{userUuid}", {
  summary: "A user's points in each season",
  tags: ["Points"],
  request: { params: UserParam },
  responses: ok(z.array(StatusSchema), 400),
});

export const lifetimePoints = route("get", "/points/ranking-status/sum/{userUuid}", {
  summary: "A user's points over all seasons",
  tags: ["Points"],
  request: { params: UserParam },
  responses: ok(z.object({ userUuid: z.uuid(), balance: z.number().int() }).openapi("LifetimePoints"), 400),
});

const CurrentStatus = z
  .object({
    season: SeasonSchema,
    userUuid: z.uuid(),
    balance: z.number().int(),
    rank: z.number().int().nullable(),
    hasCurrentRankingStatus: z.boolean(),
  })
  .openapi("CurrentRankingStatus");

export const ownCurrentStatus = authed("get", "/points/current-ranking-status", {
  summary: "The caller's points and rank this season",
  tags: ["Points"],
  responses: ok(CurrentStatus, 401, 403, 404),
});

export const userCurrentStatus = route("get", "/points/current-ranking-status/{userUuid}", {
  summary: "A user's points and rank this season",
  tags: ["Points"],
  request: { params: UserParam },
  responses: ok(CurrentStatus, 400, 404),
});

// ---- rankings

const currentRankingAt = (path: "/points/season-ranking" | "/points/season-ranking-current") =>
  route("get", path, {
    summary: "This season's ranking",
    tags: ["Rankings"],
    request: { query: TakeSkip },
    responses: ok(RankingPage, 400, 404),
  });
export const seasonRanking = currentRankingAt("/points/season-ranking");
export const currentSeasonRanking = currentRankingAt("/points/season-ranking-current");

export const namedSeasonRanking = route("get", "/points/season-ranking/{seasonName}", {
  summary: "A season's ranking, by the season's name",
  tags: ["Rankings"],
  request: {
    params: z.object({
      seasonName: z
        .string()
        .min(1)
        .max(100)
        .openapi({ param: { name: "seasonName", in: "path" } }),
    }),
    query: TakeSkip,
  },
  responses: ok(RankingPage, 400, 404),
});

export const allSeasonsRanking = route("get", "/points/all-seasons-ranking", {
  summary: "The lifetime ranking over every season",
  tags: ["Rankings"],
  request: { query: TakeSkip },
  responses: ok(RankingPage, 400),
});

// ---- admin ranking statuses

const AdminQuery = TakeSkip.extend({ seasonId: z.uuid().optional() });

export const adminRanking = authed("get", "/admin/ranking-status", {
  summary: "Ranking statuses of a season (the current one by default) (staff)",
  tags: ["Rankings"],
  request: { query: AdminQuery },
  responses: ok(RankingPage, 400, 401, 403, 404),
});

export const adminUserStatuses = authed("get", "/admin/ranking-status/{id}", {
  summary: "One user's statuses in every season (staff)",
  tags: ["Rankings"],
  request: { params: UuidParam },
  responses: ok(z.array(StatusSchema), 400, 401, 403),
});

export const adminLifetimeRanking = authed("get", "/admin/ranking-status-lifetime", {
  summary: "The lifetime ranking (staff)",
  tags: ["Rankings"],
  request: { query: TakeSkip },
  responses: ok(RankingPage, 400, 401, 403),
});

export const adminLifetimeEntry = authed("get", "/admin/ranking-status-lifetime/{id}", {
  summary: "One user's lifetime points (staff)",
  tags: ["Rankings"],
  request: { params: UuidParam },
  responses: ok(RankingEntrySchema, 400, 401, 403, 404),
});
