import { createRoute, z } from "@hono/zod-openapi";
import { bearer, DateTime, errors, json, jsonBody, noContent, Offset, UuidParam } from "../../lib/openapi.ts";

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

export const createSeason = createRoute({
  method: "post",
  path: "/points/season",
  tags: ["Seasons"],
  summary: "Create a season (admins); seasons may not overlap",
  security: bearer,
  request: jsonBody(SeasonBody),
  responses: { 201: json(SeasonSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const updateSeason = createRoute({
  method: "patch",
  path: "/points/season/{id}",
  tags: ["Seasons"],
  summary: "Change a season (admins)",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(SeasonBody.partial()) },
  responses: { 200: json(SeasonSchema), ...errors(400, 401, 403, 404, 409) },
});

const deleteAt = (path: "/points/season/{id}" | "/admin/seasons/{id}") =>
  createRoute({
    method: "delete",
    path,
    tags: ["Seasons"],
    summary: "Delete a season and its points (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  });
export const deleteSeason = deleteAt("/points/season/{id}");
export const adminDeleteSeason = deleteAt("/admin/seasons/{id}");

export const listSeasons = createRoute({
  method: "get",
  path: "/admin/seasons",
  tags: ["Seasons"],
  summary: "Every season, newest first (staff)",
  security: bearer,
  responses: { 200: json(z.array(SeasonSchema)), ...errors(401, 403) },
});

export const getSeason = createRoute({
  method: "get",
  path: "/admin/seasons/{id}",
  tags: ["Seasons"],
  summary: "One season (staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(SeasonSchema), ...errors(400, 401, 403, 404) },
});

export const currentSeason = createRoute({
  method: "get",
  path: "/seasons/current",
  tags: ["Seasons"],
  summary: "The season running now",
  responses: { 200: json(SeasonSchema), ...errors(404) },
});

const StartParam = z.object({
  seasonStart: DateTime.openapi({ param: { name: "seasonStart", in: "path" } }),
});
const adjacent = (path: "/points/next-season/{seasonStart}" | "/points/prev-season/{seasonStart}", after: boolean) =>
  createRoute({
    method: "get",
    path,
    tags: ["Seasons"],
    summary: `The season ${after ? "after" : "before"} the one starting at a time`,
    request: { params: StartParam },
    responses: { 200: json(SeasonSchema), ...errors(400, 404) },
  });
export const nextSeason = adjacent("/points/next-season/{seasonStart}", true);
export const prevSeason = adjacent("/points/prev-season/{seasonStart}", false);

// ---- points

export const awardPoints = createRoute({
  method: "post",
  path: "/points/service",
  tags: ["Points"],
  summary: "Award points in the current season (services: the live room when a song ends); a play's points count once",
  security: bearer,
  request: jsonBody(
    z.object({
      userUuid: z.uuid(),
      points: z.number().int().min(1).max(10_000),
      reason: z.string().max(200).optional(),
      roomUuid: z.uuid().optional(),
      awardKey: z.string().min(1).max(200).optional(),
    }),
  ),
  responses: {
    200: json(
      z.object({ awarded: z.boolean(), seasonId: z.uuid(), balance: z.number().int() }).openapi("PointsAwarded"),
    ),
    ...errors(400, 401, 403, 404),
  },
});

const StatusSchema = z
  .object({ seasonId: z.uuid(), seasonName: z.string(), balance: z.number().int() })
  .openapi("RankingStatus");
const UserParam = z.object({ userUuid: z.uuid().openapi({ param: { name: "userUuid", in: "path" } }) });

export const rankingStatuses = createRoute({
  method: "get",
  path: "/points/ranking-status/{userUuid}",
  tags: ["Points"],
  summary: "A user's points in each season",
  request: { params: UserParam },
  responses: { 200: json(z.array(StatusSchema)), ...errors(400) },
});

export const lifetimePoints = createRoute({
  method: "get",
  path: "/points/ranking-status/sum/{userUuid}",
  tags: ["Points"],
  summary: "A user's points over all seasons",
  request: { params: UserParam },
  responses: {
    200: json(z.object({ userUuid: z.uuid(), balance: z.number().int() }).openapi("LifetimePoints")),
    ...errors(400),
  },
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

export const ownCurrentStatus = createRoute({
  method: "get",
  path: "/points/current-ranking-status",
  tags: ["Points"],
  summary: "The caller's points and rank this season",
  security: bearer,
  responses: { 200: json(CurrentStatus), ...errors(401, 403, 404) },
});

export const userCurrentStatus = createRoute({
  method: "get",
  path: "/points/current-ranking-status/{userUuid}",
  tags: ["Points"],
  summary: "A user's points and rank this season",
  request: { params: UserParam },
  responses: { 200: json(CurrentStatus), ...errors(400, 404) },
});

// ---- rankings

const currentRankingAt = (path: "/points/season-ranking" | "/points/season-ranking-current") =>
  createRoute({
    method: "get",
    path,
    tags: ["Rankings"],
    summary: "This season's ranking",
    request: { query: TakeSkip },
    responses: { 200: json(RankingPage), ...errors(400, 404) },
  });
export const seasonRanking = currentRankingAt("/points/season-ranking");
export const currentSeasonRanking = currentRankingAt("/points/season-ranking-current");

export const namedSeasonRanking = createRoute({
  method: "get",
  path: "/points/season-ranking/{seasonName}",
  tags: ["Rankings"],
  summary: "A season's ranking, by the season's name",
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
  responses: { 200: json(RankingPage), ...errors(400, 404) },
});

export const allSeasonsRanking = createRoute({
  method: "get",
  path: "/points/all-seasons-ranking",
  tags: ["Rankings"],
  summary: "The lifetime ranking over every season",
  request: { query: TakeSkip },
  responses: { 200: json(RankingPage), ...errors(400) },
});

// ---- admin ranking statuses

const AdminQuery = TakeSkip.extend({ seasonId: z.uuid().optional() });

export const adminRanking = createRoute({
  method: "get",
  path: "/admin/ranking-status",
  tags: ["Rankings"],
  summary: "Ranking statuses of a season (the current one by default) (staff)",
  security: bearer,
  request: { query: AdminQuery },
  responses: { 200: json(RankingPage), ...errors(400, 401, 403, 404) },
});

export const adminUserStatuses = createRoute({
  method: "get",
  path: "/admin/ranking-status/{id}",
  tags: ["Rankings"],
  summary: "One user's statuses in every season (staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(z.array(StatusSchema)), ...errors(400, 401, 403) },
});

export const adminLifetimeRanking = createRoute({
  method: "get",
  path: "/admin/ranking-status-lifetime",
  tags: ["Rankings"],
  summary: "The lifetime ranking (staff)",
  security: bearer,
  request: { query: TakeSkip },
  responses: { 200: json(RankingPage), ...errors(400, 401, 403) },
});

export const adminLifetimeEntry = createRoute({
  method: "get",
  path: "/admin/ranking-status-lifetime/{id}",
  tags: ["Rankings"],
  summary: "One user's lifetime points (staff)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(RankingEntrySchema), ...errors(400, 401, 403, 404) },
});
