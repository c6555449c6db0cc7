import { type Db, schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, desc, eq, gt, lt, lte, ne, sql } from "drizzle-orm";
import { ADMINS, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, conflict, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { profilesOf } from "../social/relations.ts";

export const NO_CURRENT_SEASON = "There is no season running now.";
export const SEASON_OVERLAPS = "This season overlaps another one.";
export const seasonRoutes = createRouter();

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
type Season = typeof schema.seasons.$inferSelect;
const seasonView = (s: Season) => ({
  id: s.id,
  name: s.name,
  start: s.start.toISOString(),
  end: s.end.toISOString(),
  handledAt: s.handledAt?.toISOString() ?? null,
  createdAt: s.createdAt.toISOString(),
});
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
  skip: z.coerce.number().int().min(0).default(0),
});

export async function currentSeason(db: Db, now: Date) {
  const [season] = await db
    .select()
    .from(schema.seasons)
    .where(and(lte(schema.seasons.start, now), gt(schema.seasons.end, now)))
    .limit(1);
  return season ?? null;
}

async function overlaps(db: Db, start: Date, end: Date, exceptId?: string) {
  const [other] = await db
    .select({ id: schema.seasons.id })
    .from(schema.seasons)
    .where(
      and(
        lt(schema.seasons.start, end),
        gt(schema.seasons.end, start),
        exceptId ? ne(schema.seasons.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!other;
}

/** One season's ranking (or the lifetime one, summed over seasons), best first; ties go to who got there first. */
async function ranking(db: Db, seasonId: string | null, take: number, skip: number, userUuid?: string) {
  const filter = and(
    seasonId ? eq(schema.rankingStatuses.seasonId, seasonId) : undefined,
    userUuid ? eq(schema.rankingStatuses.userUuid, userUuid) : undefined,
  );
  const rows = await db
    .select({
      userUuid: schema.rankingStatuses.userUuid,
      balance: sql<number>`sum(${schema.rankingStatuses.balance})::int`,
      reached: sql<Date>`max(${schema.rankingStatuses.updatedAt})`,
    })
    .from(schema.rankingStatuses)
    .where(filter)
    .groupBy(schema.rankingStatuses.userUuid)
    .orderBy(
      desc(sql`sum(${schema.rankingStatuses.balance})`),
      asc(sql`max(${schema.rankingStatuses.updatedAt})`),
      asc(schema.rankingStatuses.userUuid),
    )
    .limit(take)
    .offset(skip);
  const [total] = await db
    .select({ n: sql<number>`count(distinct ${schema.rankingStatuses.userUuid})::int` })
    .from(schema.rankingStatuses)
    .where(filter);
  const profiles = new Map(
    (
      await profilesOf(
        db,
        rows.map((r) => r.userUuid),
      )
    ).map((p) => [p.uuid, p]),
  );
  return {
    data: rows.map((r, i) => ({
      rank: skip + i + 1,
      userUuid: r.userUuid,
      seasonId,
      balance: Number(r.balance),
      nickname: profiles.get(r.userUuid)?.nickname ?? null,
      avatarId: profiles.get(r.userUuid)?.avatarId ?? null,
    })),
    total: total?.n ?? 0,
  };
}

// ---- seasons

const SeasonBody = z.object({
  name: z.string().trim().min(1).max(100),
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
});

seasonRoutes.openapi(
  createRoute({
    method: "post",
    path: "/points/season",
    tags: ["Seasons"],
    summary: "Create a season (admins); seasons may not overlap",
    security: bearer,
    request: jsonBody(SeasonBody),
    responses: { 201: json(SeasonSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    const start = new Date(body.start);
    const end = new Date(body.end);
    if (start >= end) throw badRequest(["end: must be after start"]);
    const { db, clock } = c.var.deps;
    if (await overlaps(db, start, end)) throw conflict(SEASON_OVERLAPS);
    try {
      const [row] = await db
        .insert(schema.seasons)
        .values({ name: body.name, start, end, createdAt: clock.now() })
        .returning();
      if (!row) throw new Error("season insert returned nothing");
      return c.json(seasonView(row), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("A season with this name exists.");
      throw err;
    }
  },
);

seasonRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/points/season/{id}",
    tags: ["Seasons"],
    summary: "Change a season (admins)",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(SeasonBody.partial()) },
    responses: { 200: json(SeasonSchema), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { db } = c.var.deps;
    const id = c.req.valid("param").id;
    const [season] = await db.select().from(schema.seasons).where(eq(schema.seasons.id, id));
    if (!season) throw notFound("Season not found.");
    const body = c.req.valid("json");
    const start = body.start ? new Date(body.start) : season.start;
    const end = body.end ? new Date(body.end) : season.end;
    if (start >= end) throw badRequest(["end: must be after start"]);
    if (await overlaps(db, start, end, id)) throw conflict(SEASON_OVERLAPS);
    try {
      const [row] = await db
        .update(schema.seasons)
        .set({ ...(body.name ? { name: body.name } : {}), start, end })
        .where(eq(schema.seasons.id, id))
        .returning();
      return c.json(seasonView(row ?? season), 200);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("A season with this name exists.");
      throw err;
    }
  },
);

for (const path of ["/points/season/{id}", "/admin/seasons/{id}"] as const)
  seasonRoutes.openapi(
    createRoute({
      method: "delete",
      path,
      tags: ["Seasons"],
      summary: "Delete a season and its points (admins)",
      security: bearer,
      request: { params: UuidParam },
      responses: { ...noContent, ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      await requireUser(c, { roles: ADMINS });
      const deleted = await c.var.deps.db
        .delete(schema.seasons)
        .where(eq(schema.seasons.id, c.req.valid("param").id))
        .returning();
      if (deleted.length === 0) throw notFound("Season not found.");
      return c.body(null, 204);
    },
  );

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/seasons",
    tags: ["Seasons"],
    summary: "Every season, newest first (staff)",
    security: bearer,
    responses: { 200: json(z.array(SeasonSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const rows = await c.var.deps.db.select().from(schema.seasons).orderBy(desc(schema.seasons.start));
    return c.json(rows.map(seasonView), 200);
  },
);

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/seasons/{id}",
    tags: ["Seasons"],
    summary: "One season (staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(SeasonSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const [row] = await c.var.deps.db
      .select()
      .from(schema.seasons)
      .where(eq(schema.seasons.id, c.req.valid("param").id));
    if (!row) throw notFound("Season not found.");
    return c.json(seasonView(row), 200);
  },
);

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/seasons/current",
    tags: ["Seasons"],
    summary: "The season running now",
    responses: { 200: json(SeasonSchema), ...errors(404) },
  }),
  async (c) => {
    const season = await currentSeason(c.var.deps.db, c.var.deps.clock.now());
    if (!season) throw notFound(NO_CURRENT_SEASON);
    return c.json(seasonView(season), 200);
  },
);

const StartParam = z.object({
  seasonStart: z.iso.datetime({ offset: true }).openapi({ param: { name: "seasonStart", in: "path" } }),
});
for (const [path, direction] of [
  ["/points/next-season/{seasonStart}", "next"],
  ["/points/prev-season/{seasonStart}", "prev"],
] as const)
  seasonRoutes.openapi(
    createRoute({
      method: "get",
      path,
      tags: ["Seasons"],
      summary: `The season ${direction === "next" ? "after" : "before"} the one starting at a time`,
      request: { params: StartParam },
      responses: { 200: json(SeasonSchema), ...errors(400, 404) },
    }),
    async (c) => {
      const at = new Date(c.req.valid("param").seasonStart);
      const [row] = await c.var.deps.db
        .select()
        .from(schema.seasons)
        .where(direction === "next" ? gt(schema.seasons.start, at) : lt(schema.seasons.start, at))
        .orderBy(direction === "next" ? asc(schema.seasons.start) : desc(schema.seasons.start))
        .limit(1);
      if (!row) throw notFound("There is no such season.");
      return c.json(seasonView(row), 200);
    },
  );

// ---- points

seasonRoutes.openapi(
  createRoute({
    method: "post",
    path: "/points/service",
    tags: ["Points"],
    summary:
      "Award points in the current season (services: the live room when a song ends); a play's points count once",
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
  }),
  async (c) => {
    await requireService(c);
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const season = await currentSeason(db, now);
    if (!season) throw notFound(NO_CURRENT_SEASON);
    const [user] = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.uuid, body.userUuid));
    if (!user) throw notFound("User not found.");
    const result = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(schema.pointAwards)
        .values({
          userUuid: body.userUuid,
          seasonId: season.id,
          points: body.points,
          reason: body.reason ?? null,
          roomUuid: body.roomUuid ?? null,
          awardKey: body.awardKey ?? null,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (inserted.length === 0) {
        const [status] = await tx
          .select()
          .from(schema.rankingStatuses)
          .where(
            and(eq(schema.rankingStatuses.userUuid, body.userUuid), eq(schema.rankingStatuses.seasonId, season.id)),
          );
        return { awarded: false, balance: status?.balance ?? 0 };
      }
      const [status] = await tx
        .insert(schema.rankingStatuses)
        .values({ userUuid: body.userUuid, seasonId: season.id, balance: body.points, updatedAt: now })
        .onConflictDoUpdate({
          target: [schema.rankingStatuses.userUuid, schema.rankingStatuses.seasonId],
          set: { balance: sql`${schema.rankingStatuses.balance} + ${body.points}`, updatedAt: now },
        })
        .returning();
      return { awarded: true, balance: status?.balance ?? body.points };
    });
    return c.json({ ...result, seasonId: season.id }, 200);
  },
);

const StatusSchema = z
  .object({ seasonId: z.uuid(), seasonName: z.string(), balance: z.number().int() })
  .openapi("RankingStatus");
async function statuses(db: Db, userUuid: string) {
  const rows = await db
    .select({ seasonId: schema.seasons.id, seasonName: schema.seasons.name, balance: schema.rankingStatuses.balance })
    .from(schema.rankingStatuses)
    .innerJoin(schema.seasons, eq(schema.seasons.id, schema.rankingStatuses.seasonId))
    .where(eq(schema.rankingStatuses.userUuid, userUuid))
    .orderBy(desc(schema.seasons.start));
  return rows;
}
const UserParam = z.object({ userUuid: z.uuid().openapi({ param: { name: "userUuid", in: "path" } }) });

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/points/ranking-status/{userUuid}",
    tags: ["Points"],
    summary: "A user's points in each season",
    request: { params: UserParam },
    responses: { 200: json(z.array(StatusSchema)), ...errors(400) },
  }),
  async (c) => c.json(await statuses(c.var.deps.db, c.req.valid("param").userUuid), 200),
);

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/points/ranking-status/sum/{userUuid}",
    tags: ["Points"],
    summary: "A user's points over all seasons",
    request: { params: UserParam },
    responses: {
      200: json(z.object({ userUuid: z.uuid(), balance: z.number().int() }).openapi("LifetimePoints")),
      ...errors(400),
    },
  }),
  async (c) => {
    const userUuid = c.req.valid("param").userUuid;
    const rows = await statuses(c.var.deps.db, userUuid);
    return c.json({ userUuid, balance: rows.reduce((sum, r) => sum + r.balance, 0) }, 200);
  },
);

async function currentStatus(c: Parameters<typeof requireUser>[0], userUuid: string) {
  const season = await currentSeason(c.var.deps.db, c.var.deps.clock.now());
  if (!season) throw notFound(NO_CURRENT_SEASON);
  const page = await ranking(c.var.deps.db, season.id, 1, 0, userUuid);
  const [position] = await c.var.deps.db
    .select({ ahead: sql<number>`count(*)::int` })
    .from(schema.rankingStatuses)
    .where(
      and(
        eq(schema.rankingStatuses.seasonId, season.id),
        gt(schema.rankingStatuses.balance, page.data[0]?.balance ?? 0),
      ),
    );
  return {
    season: seasonView(season),
    userUuid,
    balance: page.data[0]?.balance ?? 0,
    rank: page.data[0] ? (position?.ahead ?? 0) + 1 : null,
    hasCurrentRankingStatus: !!page.data[0],
  };
}
const CurrentStatus = z
  .object({
    season: SeasonSchema,
    userUuid: z.uuid(),
    balance: z.number().int(),
    rank: z.number().int().nullable(),
    hasCurrentRankingStatus: z.boolean(),
  })
  .openapi("CurrentRankingStatus");

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/points/current-ranking-status",
    tags: ["Points"],
    summary: "The caller's points and rank this season",
    security: bearer,
    responses: { 200: json(CurrentStatus), ...errors(401, 403, 404) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    return c.json(await currentStatus(c, user.uuid), 200);
  },
);
seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/points/current-ranking-status/{userUuid}",
    tags: ["Points"],
    summary: "A user's points and rank this season",
    request: { params: UserParam },
    responses: { 200: json(CurrentStatus), ...errors(400, 404) },
  }),
  async (c) => c.json(await currentStatus(c, c.req.valid("param").userUuid), 200),
);

// ---- rankings

for (const path of ["/points/season-ranking", "/points/season-ranking-current"] as const)
  seasonRoutes.openapi(
    createRoute({
      method: "get",
      path,
      tags: ["Rankings"],
      summary: "This season's ranking",
      request: { query: TakeSkip },
      responses: { 200: json(RankingPage), ...errors(400, 404) },
    }),
    async (c) => {
      const season = await currentSeason(c.var.deps.db, c.var.deps.clock.now());
      if (!season) throw notFound(NO_CURRENT_SEASON);
      const { take, skip } = c.req.valid("query");
      return c.json({ season: seasonView(season), ...(await ranking(c.var.deps.db, season.id, take, skip)) }, 200);
    },
  );

seasonRoutes.openapi(
  createRoute({
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
  }),
  async (c) => {
    const [season] = await c.var.deps.db
      .select()
      .from(schema.seasons)
      .where(eq(schema.seasons.name, c.req.valid("param").seasonName));
    if (!season) throw notFound("Season not found.");
    const { take, skip } = c.req.valid("query");
    return c.json({ season: seasonView(season), ...(await ranking(c.var.deps.db, season.id, take, skip)) }, 200);
  },
);

seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/points/all-seasons-ranking",
    tags: ["Rankings"],
    summary: "The lifetime ranking over every season",
    request: { query: TakeSkip },
    responses: { 200: json(RankingPage), ...errors(400) },
  }),
  async (c) => {
    const { take, skip } = c.req.valid("query");
    return c.json({ season: null, ...(await ranking(c.var.deps.db, null, take, skip)) }, 200);
  },
);

// ---- admin ranking statuses

const AdminQuery = TakeSkip.extend({ seasonId: z.uuid().optional() });
seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/ranking-status",
    tags: ["Rankings"],
    summary: "Ranking statuses of a season (the current one by default) (staff)",
    security: bearer,
    request: { query: AdminQuery },
    responses: { 200: json(RankingPage), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { take, skip, seasonId } = c.req.valid("query");
    const { db, clock } = c.var.deps;
    const season = seasonId
      ? ((await db.select().from(schema.seasons).where(eq(schema.seasons.id, seasonId)))[0] ?? null)
      : await currentSeason(db, clock.now());
    if (!season) throw notFound("Season not found.");
    return c.json({ season: seasonView(season), ...(await ranking(db, season.id, take, skip)) }, 200);
  },
);
seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/ranking-status/{id}",
    tags: ["Rankings"],
    summary: "One user's statuses in every season (staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(z.array(StatusSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    return c.json(await statuses(c.var.deps.db, c.req.valid("param").id), 200);
  },
);
seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/ranking-status-lifetime",
    tags: ["Rankings"],
    summary: "The lifetime ranking (staff)",
    security: bearer,
    request: { query: TakeSkip },
    responses: { 200: json(RankingPage), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const { take, skip } = c.req.valid("query");
    return c.json({ season: null, ...(await ranking(c.var.deps.db, null, take, skip)) }, 200);
  },
);
seasonRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/ranking-status-lifetime/{id}",
    tags: ["Rankings"],
    summary: "One user's lifetime points (staff)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(RankingEntrySchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    const page = await ranking(c.var.deps.db, null, 1, 0, c.req.valid("param").id);
    if (!page.data[0]) throw notFound("This user has no points.");
    return c.json(page.data[0], 200);
  },
);
