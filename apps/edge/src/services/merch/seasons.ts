import { type Db, schema } from "@booth/db";
import { and, asc, desc, eq, gt, lt, lte, ne, sql } from "drizzle-orm";
import { adminItems } from "../../lib/admin-items.ts";
import { uniqueOr } from "../../lib/db-errors.ts";
import { badRequest, conflict, found, USER_NOT_FOUND } from "../../lib/errors.ts";
import { isoOrNull } from "../../lib/json-rows.ts";
import { orNull } from "../../lib/or-null.ts";
import { firstRow } from "../../lib/rows.ts";
import { profilesOf } from "../user/public.ts";

export const NO_CURRENT_SEASON = "There is no season running now.";
export const SEASON_OVERLAPS = "This season overlaps another one.";
export const SEASON_NOT_FOUND = "Season not found.";
export const NO_SUCH_SEASON = "There is no such season.";
export const NO_POINTS = "This user has no points.";
const nameTaken = () => conflict("A season with this name exists.");

export type Season = typeof schema.seasons.$inferSelect;
export const seasonView = (s: Season) => ({
  id: s.id,
  name: s.name,
  start: s.start.toISOString(),
  end: s.end.toISOString(),
  handledAt: isoOrNull(s.handledAt),
  createdAt: s.createdAt.toISOString(),
});

export const seasons = adminItems(schema.seasons, schema.seasons.id, SEASON_NOT_FOUND);

export async function currentSeason(db: Db, now: Date) {
  return firstRow(db, schema.seasons, and(lte(schema.seasons.start, now), gt(schema.seasons.end, now)));
}

/** The season running now, or a 404. */
export const runningSeason = async (db: Db, now: Date) => found(await currentSeason(db, now), NO_CURRENT_SEASON);

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

async function checkPeriod(db: Db, start: Date, end: Date, exceptId?: string) {
  if (start >= end) throw badRequest(["end: must be after start"]);
  if (await overlaps(db, start, end, exceptId)) throw conflict(SEASON_OVERLAPS);
}

export interface SeasonFields {
  name: string;
  start: string;
  end: string;
}

/** A new season; seasons may not overlap, and their names are unique. */
export async function createSeason(db: Db, body: SeasonFields, now: Date) {
  const start = new Date(body.start);
  const end = new Date(body.end);
  await checkPeriod(db, start, end);
  return uniqueOr(() => seasons.insert(db, { name: body.name, start, end, createdAt: now }), nameTaken);
}

export async function updateSeason(db: Db, id: string, body: Partial<SeasonFields>) {
  const season = await seasons.find(db, id);
  const start = body.start ? new Date(body.start) : season.start;
  const end = body.end ? new Date(body.end) : season.end;
  await checkPeriod(db, start, end, id);
  const [row] = await uniqueOr(
    () =>
      db
        .update(schema.seasons)
        .set({ ...(body.name ? { name: body.name } : {}), start, end })
        .where(eq(schema.seasons.id, id))
        .returning(),
    nameTaken,
  );
  return row ?? season;
}

/** Every season, newest first. */
export const listSeasons = (db: Db) => db.select().from(schema.seasons).orderBy(desc(schema.seasons.start));

/** The season after (next) or before (prev) the one starting at `at`, or a 404. */
export async function adjacentSeason(db: Db, at: Date, direction: "next" | "prev") {
  const [row] = await db
    .select()
    .from(schema.seasons)
    .where(direction === "next" ? gt(schema.seasons.start, at) : lt(schema.seasons.start, at))
    .orderBy(direction === "next" ? asc(schema.seasons.start) : desc(schema.seasons.start))
    .limit(1);
  return found(row, NO_SUCH_SEASON);
}

export async function seasonByName(db: Db, name: string) {
  const season = await firstRow(db, schema.seasons, eq(schema.seasons.name, name));
  return found(season, SEASON_NOT_FOUND);
}

/** The season with this id, or else the current one; a 404 when there is none. */
export async function seasonOrCurrent(db: Db, seasonId: string | undefined, now: Date) {
  const season = seasonId
    ? await firstRow(db, schema.seasons, eq(schema.seasons.id, seasonId))
    : await currentSeason(db, now);
  return found(season, SEASON_NOT_FOUND);
}

// ---- points

export interface Award {
  userUuid: string;
  points: number;
  reason?: string | undefined;
  roomUuid?: string | undefined;
  awardKey?: string | undefined;
}

/** Awards points in the current season; an award with a key already used counts once. */
export async function awardPoints(db: Db, award: Award, now: Date) {
  const season = await runningSeason(db, now);
  const [user] = await db
    .select({ uuid: schema.users.uuid })
    .from(schema.users)
    .where(eq(schema.users.uuid, award.userUuid));
  found(user, USER_NOT_FOUND);
  const result = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(schema.pointAwards)
      .values({
        userUuid: award.userUuid,
        seasonId: season.id,
        points: award.points,
        ...orNull(award, "reason", "roomUuid", "awardKey"),
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) {
      const status = await firstRow(
        tx,
        schema.rankingStatuses,
        and(eq(schema.rankingStatuses.userUuid, award.userUuid), eq(schema.rankingStatuses.seasonId, season.id)),
      );
      return { awarded: false, balance: status?.balance ?? 0 };
    }
    const [status] = await tx
      .insert(schema.rankingStatuses)
      .values({ userUuid: award.userUuid, seasonId: season.id, balance: award.points, updatedAt: now })
      .onConflictDoUpdate({
        target: [schema.rankingStatuses.userUuid, schema.rankingStatuses.seasonId],
        set: { balance: sql`${schema.rankingStatuses.balance} + ${award.points}`, updatedAt: now },
      })
      .returning();
    return { awarded: true, balance: status?.balance ?? award.points };
  });
  return { ...result, seasonId: season.id };
}

/** A user's points in each season, newest season first. */
export async function statuses(db: Db, userUuid: string) {
  const rows = await db
    .select({ seasonId: schema.seasons.id, seasonName: schema.seasons.name, balance: schema.rankingStatuses.balance })
    .from(schema.rankingStatuses)
    .innerJoin(schema.seasons, eq(schema.seasons.id, schema.rankingStatuses.seasonId))
    .where(eq(schema.rankingStatuses.userUuid, userUuid))
    .orderBy(desc(schema.seasons.start));
  return rows;
}

/** A user's points over all seasons. */
export async function lifetimePoints(db: Db, userUuid: string) {
  const rows = await statuses(db, userUuid);
  return { userUuid, balance: rows.reduce((sum, r) => sum + r.balance, 0) };
}

/** One season's ranking (or the lifetime one, summed over seasons), best first; ties go to who got there first. */
export async function ranking(db: Db, seasonId: string | null, take: number, skip: number, userUuid?: string) {
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

/** A season's ranking page, or the lifetime one (season null). */
export async function rankingPage(db: Db, season: Season | null, take: number, skip: number) {
  return { season: season ? seasonView(season) : null, ...(await ranking(db, season?.id ?? null, take, skip)) };
}

/** A user's lifetime ranking entry, or a 404 when they have no points. */
export async function lifetimeEntry(db: Db, userUuid: string) {
  const page = await ranking(db, null, 1, 0, userUuid);
  return found(page.data[0], NO_POINTS);
}

/** A user's points and rank in the current season (a 404 when none is running). */
export async function currentStatus(db: Db, now: Date, userUuid: string) {
  const season = await runningSeason(db, now);
  const page = await ranking(db, season.id, 1, 0, userUuid);
  const [position] = await db
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
