import { type Db, schema, type Tx } from "@booth/db";
import { AvatarAssignmentType, AvatarStatus, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, eq, gte, isNull, ne, notExists, or, sql } from "drizzle-orm";
import { ADMINS, requireService, requireUser, STAFF } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { badRequest, conflict, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent } from "../../lib/openapi.ts";
import { fileUrl } from "./consumables.routes.ts";

export const avatarRoutes = createRouter();
const tags = ["Avatars"];

const AvatarSchema = z
  .object({
    slug: z.string(),
    name: z.string(),
    avatarStatus: z.enum(values(AvatarStatus)),
    seasonId: z.uuid().nullable(),
    minPoints: z.number().int().nullable(),
    discordOnly: z.boolean(),
    imageUrl: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Avatar");
type Avatar = typeof schema.avatars.$inferSelect;
const view = (a: Avatar) => ({
  slug: a.slug,
  name: a.name,
  avatarStatus: a.status,
  seasonId: a.seasonId,
  minPoints: a.minPoints,
  discordOnly: a.discordOnly,
  imageUrl: fileUrl(a.fileId),
  createdAt: a.createdAt.toISOString(),
});
const AssignmentSchema = z
  .object({
    id: z.uuid(),
    avatarSlug: z.string(),
    userUuid: z.uuid(),
    assignmentType: z.enum(values(AvatarAssignmentType)),
    createdAt: z.string(),
  })
  .openapi("AvatarAssignment");
type Assignment = typeof schema.avatarAssignments.$inferSelect;
const assignmentView = (a: Assignment) => ({ ...a, createdAt: a.createdAt.toISOString() });

const Slug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lower-case letters, digits and '-'");
const SlugParam = z.object({ slug: Slug.openapi({ param: { name: "slug", in: "path" } }) });
const AvatarBody = z.object({
  slug: Slug,
  name: z.string().trim().min(1).max(100),
  avatarStatus: z.enum(values(AvatarStatus)).default("PUBLIC"),
  seasonId: z.uuid().nullable().optional(),
  minPoints: z.number().int().min(1).nullable().optional(),
  discordOnly: z.boolean().default(false),
  fileId: z.uuid().nullable().optional(),
});

async function load(db: Db, slug: string) {
  const [row] = await db.select().from(schema.avatars).where(eq(schema.avatars.slug, slug));
  if (!row) throw notFound("Avatar not found.");
  return row;
}
const visible = ne(schema.avatars.status, "PRIVATE");
const ordered = asc(schema.avatars.name);

avatarRoutes.openapi(
  createRoute({
    method: "post",
    path: "/avatars",
    tags,
    summary: "Create an avatar (admins)",
    security: bearer,
    request: jsonBody(AvatarBody),
    responses: { 201: json(AvatarSchema, "Created"), ...errors(400, 401, 403, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { avatarStatus, ...body } = c.req.valid("json");
    if (avatarStatus === "SEASON_AWARD" && !body.seasonId)
      throw badRequest(["seasonId: a season award needs its season"]);
    const { db, clock } = c.var.deps;
    try {
      const [row] = await db
        .insert(schema.avatars)
        .values({ ...body, status: avatarStatus, createdAt: clock.now(), updatedAt: clock.now() })
        .returning();
      if (!row) throw new Error("avatar insert returned nothing");
      return c.json(view(row), 201);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("An avatar with this slug exists.");
      if ((err as { cause?: { code?: string } }).cause?.code === "23503" || (err as { code?: string }).code === "23503")
        throw badRequest("The season or file does not exist.");
      throw err;
    }
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "get",
    path: "/avatars",
    tags,
    summary: "The avatars the caller may wear: public ones and those assigned to them",
    security: bearer,
    responses: { 200: json(z.array(AvatarSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const rows = await c.var.deps.db
      .selectDistinct({ avatar: schema.avatars })
      .from(schema.avatars)
      .leftJoin(
        schema.avatarAssignments,
        and(
          eq(schema.avatarAssignments.avatarSlug, schema.avatars.slug),
          eq(schema.avatarAssignments.userUuid, user.uuid),
        ),
      )
      .where(or(eq(schema.avatars.status, "PUBLIC"), eq(schema.avatarAssignments.userUuid, user.uuid)))
      .orderBy(ordered);
    return c.json(
      rows.map((r) => view(r.avatar)),
      200,
    );
  },
);

for (const [path, summary, status] of [
  ["/all-avatars", "Every avatar that is not private", null],
  ["/avatars/subscriber", "The avatars subscribers may wear", "SUBSCRIBER_ONLY"],
] as const)
  avatarRoutes.openapi(
    createRoute({ method: "get", path, tags, summary, responses: { 200: json(z.array(AvatarSchema)) } }),
    async (c) => {
      const rows = await c.var.deps.db
        .select()
        .from(schema.avatars)
        .where(status ? eq(schema.avatars.status, status) : visible)
        .orderBy(ordered);
      return c.json(rows.map(view), 200);
    },
  );

avatarRoutes.openapi(
  createRoute({
    method: "get",
    path: "/avatars/{slug}",
    tags,
    summary: "One avatar (private ones to staff only)",
    request: { params: SlugParam },
    responses: { 200: json(AvatarSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const avatar = await load(c.var.deps.db, c.req.valid("param").slug);
    if (avatar.status === "PRIVATE")
      await requireUser(c, { roles: STAFF }).catch(() => {
        throw notFound("Avatar not found.");
      });
    return c.json(view(avatar), 200);
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "get",
    path: "/avatars/{slug}/{uuid}",
    tags,
    summary: "Whether user {uuid} may wear avatar {slug}",
    request: { params: SlugParam.extend({ uuid: z.uuid().openapi({ param: { name: "uuid", in: "path" } }) }) },
    responses: {
      200: json(
        z
          .object({
            slug: z.string(),
            userUuid: z.uuid(),
            allowed: z.boolean(),
            assignment: AssignmentSchema.nullable(),
          })
          .openapi("AvatarAllowed"),
      ),
      ...errors(400, 404),
    },
  }),
  async (c) => {
    const { slug, uuid } = c.req.valid("param");
    const { db } = c.var.deps;
    const avatar = await load(db, slug);
    const [assignment] = await db
      .select()
      .from(schema.avatarAssignments)
      .where(and(eq(schema.avatarAssignments.avatarSlug, slug), eq(schema.avatarAssignments.userUuid, uuid)));
    return c.json(
      {
        slug,
        userUuid: uuid,
        allowed: avatar.status === "PUBLIC" || !!assignment,
        assignment: assignment ? assignmentView(assignment) : null,
      },
      200,
    );
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/avatars/{slug}",
    tags,
    summary: "Change an avatar (admins)",
    security: bearer,
    request: { params: SlugParam, ...jsonBody(AvatarBody.omit({ slug: true }).partial()) },
    responses: { 200: json(AvatarSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { avatarStatus, ...body } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const slug = c.req.valid("param").slug;
    await load(db, slug);
    const [row] = await db
      .update(schema.avatars)
      .set({ ...body, ...(avatarStatus ? { status: avatarStatus } : {}), updatedAt: clock.now() })
      .where(eq(schema.avatars.slug, slug))
      .returning()
      .catch((err) => {
        if (
          (err as { cause?: { code?: string } }).cause?.code === "23503" ||
          (err as { code?: string }).code === "23503"
        )
          throw badRequest("The season or file does not exist.");
        throw err;
      });
    if (!row) throw notFound("Avatar not found.");
    return c.json(view(row), 200);
  },
);

for (const path of ["/avatars/{slug}", "/admin/avatars/{slug}"] as const)
  avatarRoutes.openapi(
    createRoute({
      method: "delete",
      path,
      tags,
      summary: "Delete an avatar and its assignments (admins)",
      security: bearer,
      request: { params: SlugParam },
      responses: { ...noContent, ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      await requireUser(c, { roles: ADMINS });
      const deleted = await c.var.deps.db
        .delete(schema.avatars)
        .where(eq(schema.avatars.slug, c.req.valid("param").slug))
        .returning();
      if (deleted.length === 0) throw notFound("Avatar not found.");
      return c.body(null, 204);
    },
  );

avatarRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/avatars",
    tags,
    summary: "Every avatar, private ones included (staff)",
    security: bearer,
    responses: { 200: json(z.array(AvatarSchema)), ...errors(401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    return c.json((await c.var.deps.db.select().from(schema.avatars).orderBy(ordered)).map(view), 200);
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/avatars/{slug}",
    tags,
    summary: "One avatar (staff)",
    security: bearer,
    request: { params: SlugParam },
    responses: { 200: json(AvatarSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: STAFF });
    return c.json(view(await load(c.var.deps.db, c.req.valid("param").slug)), 200);
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "get",
    path: "/service/avatar/{avatarSlug}",
    tags: ["Service"],
    summary: "One avatar (services)",
    security: bearer,
    request: { params: z.object({ avatarSlug: Slug.openapi({ param: { name: "avatarSlug", in: "path" } }) }) },
    responses: { 200: json(AvatarSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireService(c);
    return c.json(view(await load(c.var.deps.db, c.req.valid("param").avatarSlug)), 200);
  },
);

// ---- assignments

export async function assign(
  tx: Tx | Db,
  slug: string,
  userUuids: string[],
  type: Assignment["assignmentType"],
  now: Date,
) {
  if (userUuids.length === 0) return [];
  return tx
    .insert(schema.avatarAssignments)
    .values(userUuids.map((userUuid) => ({ avatarSlug: slug, userUuid, assignmentType: type, createdAt: now })))
    .onConflictDoNothing()
    .returning();
}

avatarRoutes.openapi(
  createRoute({
    method: "post",
    path: "/avatar-assignment/{slug}",
    tags,
    summary: "Give a user an avatar (admins or services)",
    security: bearer,
    request: {
      params: SlugParam,
      ...jsonBody(
        z.object({ userUuid: z.uuid(), assignmentType: z.enum(values(AvatarAssignmentType)).default("MANUAL") }),
      ),
    },
    responses: { 201: json(AssignmentSchema, "Created"), ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireService(c);
    const { slug } = c.req.valid("param");
    const { userUuid, assignmentType } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await load(db, slug);
    const [user] = await db
      .select({ uuid: schema.users.uuid })
      .from(schema.users)
      .where(eq(schema.users.uuid, userUuid));
    if (!user) throw notFound("User not found.");
    const [row] = await assign(db, slug, [userUuid], assignmentType, clock.now());
    if (!row) throw conflict("This user already has this avatar.");
    return c.json(assignmentView(row), 201);
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/avatar-assignment/{avatarAssignmentId}",
    tags,
    summary: "Take an avatar back (admins)",
    security: bearer,
    request: {
      params: z.object({ avatarAssignmentId: z.uuid().openapi({ param: { name: "avatarAssignmentId", in: "path" } }) }),
    },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const deleted = await c.var.deps.db
      .delete(schema.avatarAssignments)
      .where(eq(schema.avatarAssignments.id, c.req.valid("param").avatarAssignmentId))
      .returning();
    if (deleted.length === 0) throw notFound("Assignment not found.");
    return c.body(null, 204);
  },
);

// ---- season awards

/** Gives a season's award avatars to everyone who reached their points in it, up to `limit` new assignments. */
async function awardSeason(tx: Tx, seasonId: string, now: Date, limit = 10_000) {
  const awards = await tx
    .select()
    .from(schema.avatars)
    .where(and(eq(schema.avatars.status, "SEASON_AWARD"), eq(schema.avatars.seasonId, seasonId)));
  let given = 0;
  for (const avatar of awards) {
    const winners = await tx
      .select({ userUuid: schema.rankingStatuses.userUuid })
      .from(schema.rankingStatuses)
      .where(
        and(
          eq(schema.rankingStatuses.seasonId, seasonId),
          gte(schema.rankingStatuses.balance, avatar.minPoints ?? 1),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(schema.avatarAssignments)
              .where(
                and(
                  eq(schema.avatarAssignments.avatarSlug, avatar.slug),
                  eq(schema.avatarAssignments.userUuid, schema.rankingStatuses.userUuid),
                ),
              ),
          ),
        ),
      )
      .limit(Math.max(limit - given, 0));
    given += (
      await assign(
        tx,
        avatar.slug,
        winners.map((w) => w.userUuid),
        "SEASON_AWARD",
        now,
      )
    ).length;
  }
  return given;
}

avatarRoutes.openapi(
  createRoute({
    method: "post",
    path: "/points/season/admin/handle-points",
    tags: ["Seasons"],
    summary: "Close an ended season: award its avatars to those who earned them (admins; once per season)",
    security: bearer,
    request: jsonBody(z.object({ seasonId: z.uuid() })),
    responses: {
      200: json(z.object({ seasonId: z.uuid(), awarded: z.number().int() }).openapi("SeasonHandled")),
      ...errors(400, 401, 403, 404, 409),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { seasonId } = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const awarded = await db.transaction(async (tx) => {
      const [season] = await tx.select().from(schema.seasons).where(eq(schema.seasons.id, seasonId)).for("update");
      if (!season) throw notFound("Season not found.");
      if (season.end > now) throw new HttpError(409, "This season has not ended yet.");
      if (season.handledAt) throw new HttpError(409, "This season's points have already been handled.");
      const given = await awardSeason(tx, seasonId, now);
      await tx
        .update(schema.seasons)
        .set({ handledAt: now })
        .where(and(eq(schema.seasons.id, seasonId), isNull(schema.seasons.handledAt)));
      return given;
    });
    return c.json({ seasonId, awarded }, 200);
  },
);

avatarRoutes.openapi(
  createRoute({
    method: "post",
    path: "/points/backfill-achieved-avatars/{seasonId}",
    tags: ["Seasons"],
    summary: "Give a season's award avatars to those who have reached them and lack them (admins)",
    security: bearer,
    request: {
      params: z.object({ seasonId: z.uuid().openapi({ param: { name: "seasonId", in: "path" } }) }),
      query: z.object({ limit: z.coerce.number().int().min(1).max(10_000).default(1000) }),
    },
    responses: {
      200: json(z.object({ seasonId: z.uuid(), awarded: z.number().int() }).openapi("AvatarsBackfilled")),
      ...errors(400, 401, 403, 404),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const { seasonId } = c.req.valid("param");
    const { db, clock } = c.var.deps;
    const [season] = await db
      .select({ id: schema.seasons.id })
      .from(schema.seasons)
      .where(eq(schema.seasons.id, seasonId));
    if (!season) throw notFound("Season not found.");
    const awarded = await db.transaction((tx) => awardSeason(tx, seasonId, clock.now(), c.req.valid("query").limit));
    return c.json({ seasonId, awarded }, 200);
  },
);
