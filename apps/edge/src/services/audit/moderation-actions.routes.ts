import { schema, type Tx } from "@booth/db";
import { ModerationActionType, RoomRole, UserRole, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { count, eq, inArray } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, MODERATORS, type Role, requireUser, STAFF } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import {
  applyCrud,
  type CrudOptions,
  CrudQuerySchema,
  CrudSelectionSchema,
  crudPageSchema,
  crudSelectPage,
  parseCrudQuery,
  parseSelection,
  pickFields,
} from "../../lib/crud-query.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";
import { cleanText, FreeData, ModerationActionSchema, moderationActionView } from "./views.ts";

export const moderationActionRoutes = createRouter();
const tags = ["Moderation actions"];
const table = schema.moderationActions;

export const ACTION_NOT_FOUND = "Moderation action not found.";
export const USER_NOT_FOUND = "User not found.";
export const ROOM_NOT_FOUND = "Room not found.";
export const MODERATOR_FROM_SERVICES_ONLY = "Only services may record an action in another moderator's name.";
const MAX_BULK = 100;

/** Who reads the log, who writes it, who may erase from it. */
const READERS: readonly Role[] = MODERATORS;
const WRITERS: readonly Role[] = STAFF;
const ERASERS: readonly Role[] = ADMINS;

/** A service token, or a signed-in user holding one of `roles`. Answers the user, or null for a service. */
async function callerWith(c: Context<AppEnv>, roles: readonly Role[]) {
  if (c.var.auth?.type === "service") return null;
  return (await requireUser(c, { roles })).user;
}

/** What the list may select, filter and sort by; `join=target` / `join=moderator` add those users' public profile. */
const PROFILE_FIELDS = ["uuid", "nickname", "avatarId", "color"] as const;
export const MODERATION_ACTION_CRUD: CrudOptions = {
  fields: {
    id: table.id,
    actionType: table.actionType,
    moderatorUuid: table.moderatorUuid,
    targetUuid: table.targetUuid,
    roomUuid: table.roomUuid,
    role: table.role,
    reason: table.reason,
    expiresAt: table.expiresAt,
    metadata: table.metadata,
    createdAt: table.createdAt,
    updatedAt: table.updatedAt,
  },
  primaryKey: "id",
  joins: { target: PROFILE_FIELDS, moderator: PROFILE_FIELDS },
  defaultSort: [{ field: "createdAt", order: "DESC" }],
};

const ProfileRef = z
  .object({ uuid: z.uuid(), nickname: z.string(), avatarId: z.string(), color: z.string() })
  .partial()
  .openapi("ModerationActionUser");
const ModerationActionItem = ModerationActionSchema.partial()
  .extend({ target: ProfileRef.nullable().optional(), moderator: ProfileRef.nullable().optional() })
  .openapi("ModerationActionItem");

type Row = typeof table.$inferSelect;
type Selection = { fields: string[] | null; joins: Record<string, string[] | null> };

/** Rows as the list answers them: the asked-for fields, and the joined profiles (null when the user is gone). */
async function itemViews(c: Context<AppEnv>, rows: Row[], selection: Selection) {
  const wanted = new Set<string>();
  for (const row of rows) {
    if ("target" in selection.joins) wanted.add(row.targetUuid);
    if ("moderator" in selection.joins && row.moderatorUuid) wanted.add(row.moderatorUuid);
  }
  const profiles = new Map<string, Record<string, unknown>>();
  if (wanted.size) {
    const found = await c.var.deps.db
      .select({
        uuid: schema.profiles.userUuid,
        nickname: schema.profiles.nickname,
        avatarId: schema.profiles.avatarId,
        color: schema.profiles.color,
      })
      .from(schema.profiles)
      .where(inArray(schema.profiles.userUuid, [...wanted]));
    for (const p of found) profiles.set(p.uuid, p);
  }
  const joined = (relation: string, uuid: string | null) => {
    const profile = uuid ? profiles.get(uuid) : undefined;
    return profile ? pickFields(profile, selection.joins[relation] ?? null) : null;
  };
  return rows.map((row) => {
    const item: Record<string, unknown> = pickFields(moderationActionView(row), selection.fields);
    if ("target" in selection.joins) item.target = joined("target", row.targetUuid);
    if ("moderator" in selection.joins) item.moderator = joined("moderator", row.moderatorUuid);
    return item;
  });
}

/** Postgres text cannot hold NUL; the crud parser binds values as given, so refuse them here with a 400. */
function refuseNul(query: Record<string, string | string[] | number | undefined>) {
  const bad = Object.entries(query).filter(([, v]) => [v ?? ""].flat().some((x) => String(x).includes("\u0000")));
  if (bad.length) throw badRequest(bad.map(([k]) => `${k}: must not contain NUL characters`));
}

// ---------------------------------------------------------------------------------------------------------------
// Input

const ROLES = [...new Set([...values(UserRole), ...values(RoomRole)])] as [string, ...string[]];
const Editable = z.object({
  actionType: z.enum(values(ModerationActionType)),
  targetUuid: z.uuid(),
  roomUuid: z.uuid().nullable().optional().openapi({ description: "The room, for an action taken in one" }),
  role: z.enum(ROLES).nullable().optional().openapi({ description: "The role granted or removed" }),
  reason: cleanText(1000).nullable().optional(),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  metadata: FreeData.nullable().optional(),
});
const CreateBody = Editable.extend({
  moderatorUuid: z.uuid().nullable().optional().openapi({
    description: "Who took the action: the caller by default; only a service may name someone else",
  }),
})
  .strict()
  .openapi("ModerationActionInput");
const ReplaceBody = Editable.strict().openapi("ModerationActionReplace");
const PatchBody = Editable.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "Nothing to change" })
  .openapi("ModerationActionPatch");
const BulkBody = z.object({ bulk: z.array(CreateBody).min(1).max(MAX_BULK) }).strict();

type Editable = z.infer<typeof Editable>;

const columns = (input: Partial<Editable>) => {
  const out: Partial<typeof table.$inferInsert> = {};
  if (input.actionType !== undefined) out.actionType = input.actionType;
  if (input.targetUuid !== undefined) out.targetUuid = input.targetUuid;
  if (input.roomUuid !== undefined) out.roomUuid = input.roomUuid;
  if (input.role !== undefined) out.role = input.role;
  if (input.reason !== undefined) out.reason = input.reason || null;
  if (input.expiresAt !== undefined) out.expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (input.metadata !== undefined) out.metadata = input.metadata;
  return out;
};

/** Every user and room the inputs name must exist; a 404 naming each one that does not. */
async function checkReferences(
  tx: Tx,
  inputs: { targetUuid?: string; moderatorUuid?: string | null; roomUuid?: string | null | undefined }[],
  at: (i: number) => string,
) {
  const users = new Set<string>();
  const rooms = new Set<string>();
  for (const input of inputs) {
    if (input.targetUuid) users.add(input.targetUuid);
    if (input.moderatorUuid) users.add(input.moderatorUuid);
    if (input.roomUuid) rooms.add(input.roomUuid);
  }
  const [foundUsers, foundRooms] = await Promise.all([
    users.size
      ? tx
          .select({ uuid: schema.users.uuid })
          .from(schema.users)
          .where(inArray(schema.users.uuid, [...users]))
      : [],
    rooms.size
      ? tx
          .select({ uuid: schema.rooms.uuid })
          .from(schema.rooms)
          .where(inArray(schema.rooms.uuid, [...rooms]))
      : [],
  ]);
  const knownUsers = new Set(foundUsers.map((u) => u.uuid));
  const knownRooms = new Set(foundRooms.map((r) => r.uuid));
  const missing: string[] = [];
  inputs.forEach((input, i) => {
    if (input.targetUuid && !knownUsers.has(input.targetUuid)) missing.push(`${at(i)}targetUuid: ${USER_NOT_FOUND}`);
    if (input.moderatorUuid && !knownUsers.has(input.moderatorUuid))
      missing.push(`${at(i)}moderatorUuid: ${USER_NOT_FOUND}`);
    if (input.roomUuid && !knownRooms.has(input.roomUuid)) missing.push(`${at(i)}roomUuid: ${ROOM_NOT_FOUND}`);
  });
  if (missing.length) throw new HttpError(404, missing.length === 1 ? (missing[0] ?? "") : missing);
}

/** The moderator of a new action: a user records in their own name; a service names one (or none). */
function moderatorOf(caller: { uuid: string } | null, input: z.infer<typeof CreateBody>) {
  if (!caller) return input.moderatorUuid ?? null;
  if (input.moderatorUuid && input.moderatorUuid !== caller.uuid) throw forbidden(MODERATOR_FROM_SERVICES_ONLY);
  return caller.uuid;
}

// ---------------------------------------------------------------------------------------------------------------
// Routes

moderationActionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/moderation-actions",
    tags,
    summary: "The moderation log, in the nestjsx/crud query syntax (moderators and above, services)",
    security: bearer,
    request: { query: CrudQuerySchema },
    responses: {
      200: json(crudPageSchema(ModerationActionItem).openapi("ModerationActionPage")),
      ...errors(400, 401, 403),
    },
  }),
  async (c) => {
    await callerWith(c, READERS);
    const params = c.req.valid("query");
    refuseNul(params);
    const query = parseCrudQuery(params, MODERATION_ACTION_CRUD);
    const { db } = c.var.deps;
    const page = await crudSelectPage(query, {
      total: db.select({ n: count() }).from(table).$dynamic(),
      rows: db.select().from(table).$dynamic(),
    });
    return c.json({ ...page, data: await itemViews(c, page.data, query) }, 200);
  },
);

moderationActionRoutes.openapi(
  createRoute({
    method: "get",
    path: "/moderation-actions/{id}",
    tags,
    summary: "One moderation action, with the same fields and join options (moderators and above, services)",
    security: bearer,
    request: { params: UuidParam, query: CrudSelectionSchema },
    responses: { 200: json(ModerationActionItem), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await callerWith(c, READERS);
    const selection = parseSelection(c.req.valid("query"), MODERATION_ACTION_CRUD);
    const [row] = await c.var.deps.db
      .select()
      .from(table)
      .where(eq(table.id, c.req.valid("param").id));
    if (!row) throw notFound(ACTION_NOT_FOUND);
    const [item] = await itemViews(c, [row], selection);
    return c.json(item, 200);
  },
);

moderationActionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/moderation-actions",
    tags,
    summary: "Record a moderation action taken elsewhere (staff and above, services)",
    description:
      "Moderation done through the user service's routes is logged there, in the same transaction; this records " +
      "actions taken by other means (the live rooms, by hand).",
    security: bearer,
    request: jsonBody(CreateBody),
    responses: { 201: json(ModerationActionSchema, "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await callerWith(c, WRITERS);
    const input = c.req.valid("json");
    const moderatorUuid = moderatorOf(caller, input);
    const now = c.var.deps.clock.now();
    const row = await c.var.deps.db.transaction(async (tx) => {
      await checkReferences(tx, [{ ...input, moderatorUuid }], () => "");
      const [created] = await tx
        .insert(table)
        .values({
          ...columns(input),
          actionType: input.actionType,
          targetUuid: input.targetUuid,
          moderatorUuid,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return created;
    });
    if (!row) throw new Error("moderation action insert returned nothing");
    return c.json(moderationActionView(row), 201);
  },
);

moderationActionRoutes.openapi(
  createRoute({
    method: "post",
    path: "/moderation-actions/bulk",
    tags,
    summary: `Record up to ${MAX_BULK} moderation actions at once, all or none (staff and above, services)`,
    security: bearer,
    request: jsonBody(BulkBody.openapi("ModerationActionBulk")),
    responses: { 201: json(z.array(ModerationActionSchema), "Created"), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const caller = await callerWith(c, WRITERS);
    const { bulk } = c.req.valid("json");
    const entries = bulk.map((input) => ({ input, moderatorUuid: moderatorOf(caller, input) }));
    const now = c.var.deps.clock.now();
    const rows = await c.var.deps.db.transaction(async (tx) => {
      await checkReferences(
        tx,
        entries.map((e) => ({ ...e.input, moderatorUuid: e.moderatorUuid })),
        (i) => `bulk.${i}.`,
      );
      return tx
        .insert(table)
        .values(
          entries.map(({ input, moderatorUuid }) => ({
            ...columns(input),
            actionType: input.actionType,
            targetUuid: input.targetUuid,
            moderatorUuid,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning();
    });
    return c.json(rows.map(moderationActionView), 201);
  },
);

/** PATCH changes the fields given; PUT replaces every editable field (those left out become null). */
async function update(c: Context<AppEnv>, id: string, input: Partial<Editable>, replace: boolean) {
  await callerWith(c, WRITERS);
  const values = columns(input);
  if (replace)
    for (const key of ["roomUuid", "role", "reason", "expiresAt", "metadata"] as const)
      if (!(key in values)) values[key] = null;
  const now = c.var.deps.clock.now();
  const row = await c.var.deps.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for("update");
    if (!existing) throw notFound(ACTION_NOT_FOUND);
    await checkReferences(tx, [input], () => "");
    const [updated] = await tx
      .update(table)
      .set({ ...values, updatedAt: now })
      .where(eq(table.id, id))
      .returning();
    return updated;
  });
  if (!row) throw notFound(ACTION_NOT_FOUND);
  return moderationActionView(row);
}

moderationActionRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/moderation-actions/{id}",
    tags,
    summary: "Correct some fields of a moderation action (staff and above, services)",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(PatchBody) },
    responses: { 200: json(ModerationActionSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => c.json(await update(c, c.req.valid("param").id, c.req.valid("json"), false), 200),
);

moderationActionRoutes.openapi(
  createRoute({
    method: "put",
    path: "/moderation-actions/{id}",
    tags,
    summary: "Replace a moderation action's editable fields (staff and above, services)",
    description: "The moderator and the creation time stay; optional fields left out become null.",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(ReplaceBody) },
    responses: { 200: json(ModerationActionSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => c.json(await update(c, c.req.valid("param").id, c.req.valid("json"), true), 200),
);

moderationActionRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/moderation-actions/{id}",
    tags,
    summary: "Erase a moderation action from the log (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ERASERS });
    const deleted = await c.var.deps.db
      .delete(table)
      .where(eq(table.id, c.req.valid("param").id))
      .returning({ id: table.id });
    if (!deleted.length) throw notFound(ACTION_NOT_FOUND);
    return c.body(null, 204);
  },
);
