import { type Db, schema, type Tx } from "@booth/db";
import type { ModerationActionType } from "@booth/db/schema";
import { count, eq, inArray } from "drizzle-orm";
import { type CrudOptions, type CrudQuery, crudSelectPage, pickFields } from "../../lib/crud/index.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, forbidden, found, HttpError, notFound, USER_NOT_FOUND } from "../../lib/errors.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";
import { moderationActionView } from "./views.ts";

const table = schema.moderationActions;

export const ACTION_NOT_FOUND = "Moderation action not found.";
export { USER_NOT_FOUND };
export const ROOM_NOT_FOUND = errorMessage("ROOM_NOT_FOUND");
export const MODERATOR_FROM_SERVICES_ONLY = "Only services may record an action in another moderator's name.";
export const MAX_BULK = 100;

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

type Row = typeof table.$inferSelect;
type Selection = { fields: string[] | null; joins: Record<string, string[] | null> };

/** Rows as the list answers them: the asked-for fields, and the joined profiles (null when the user is gone). */
async function itemViews(db: Db | Tx, rows: Row[], selection: Selection) {
  const wanted = new Set<string>();
  for (const row of rows) {
    if ("target" in selection.joins) wanted.add(row.targetUuid);
    if ("moderator" in selection.joins && row.moderatorUuid) wanted.add(row.moderatorUuid);
  }
  const profiles = new Map<string, Record<string, unknown>>();
  if (wanted.size) {
    const found = await db
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
export function refuseNul(query: Record<string, string | string[] | number | undefined>) {
  const bad = Object.entries(query).filter(([, v]) => [v ?? ""].flat().some((x) => String(x).includes("\u0000")));
  if (bad.length) throw badRequest(bad.map(([k]) => `${k}: must not contain NUL characters`));
}

/** A page of the moderation log, in the nestjsx/crud query syntax. */
export async function actionPage(db: Db | Tx, query: CrudQuery) {
  const page = await crudSelectPage(query, {
    total: db.select({ n: count() }).from(table).$dynamic(),
    rows: db.select().from(table).$dynamic(),
  });
  return { ...page, data: await itemViews(db, page.data, query) };
}

/** One moderation action, with the fields and joins asked for; a 404 when there is none. */
export async function actionItem(db: Db | Tx, id: string, selection: Selection) {
  const row = await firstRow(db, table, eq(table.id, id));
  const [item] = await itemViews(db, [found(row, ACTION_NOT_FOUND)], selection);
  return item;
}

// ---- writes

/** The editable fields of an action, as the routes validate them. */
export interface ActionFields {
  actionType: ModerationActionType;
  targetUuid: string;
  roomUuid?: string | null | undefined;
  role?: string | null | undefined;
  reason?: string | null | undefined;
  expiresAt?: string | null | undefined;
  metadata?: Record<string, unknown> | null | undefined;
}
export type NewAction = ActionFields & { moderatorUuid?: string | null | undefined };

const columns = (input: Partial<ActionFields>) => {
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

/** The moderator of a new action: a user (`caller`) records in their own name; a service (null) names one (or none). */
export function moderatorOf(caller: { uuid: string } | null, input: NewAction) {
  if (!caller) return input.moderatorUuid ?? null;
  if (input.moderatorUuid && input.moderatorUuid !== caller.uuid) throw forbidden(MODERATOR_FROM_SERVICES_ONLY);
  return caller.uuid;
}

const newRow = (input: ActionFields, moderatorUuid: string | null, now: Date) => ({
  ...columns(input),
  actionType: input.actionType,
  targetUuid: input.targetUuid,
  moderatorUuid,
  createdAt: now,
  updatedAt: now,
});

/** Records one action taken elsewhere, once the users and room it names are known. */
export async function recordAction(db: Db, input: ActionFields, moderatorUuid: string | null, now: Date) {
  const row = await db.transaction(async (tx) => {
    await checkReferences(tx, [{ ...input, moderatorUuid }], () => "");
    return returnedRow(
      "moderation action insert",
      tx
        .insert(table)
        .values(newRow(input, moderatorUuid, now))
        .returning(),
    );
  });
  return row;
}

/** Records several actions, all or none. */
export async function recordActions(
  db: Db,
  entries: { input: ActionFields; moderatorUuid: string | null }[],
  now: Date,
) {
  return db.transaction(async (tx) => {
    await checkReferences(
      tx,
      entries.map((e) => ({ ...e.input, moderatorUuid: e.moderatorUuid })),
      (i) => `bulk.${i}.`,
    );
    return tx
      .insert(table)
      .values(entries.map(({ input, moderatorUuid }) => newRow(input, moderatorUuid, now)))
      .returning();
  });
}

/** PATCH changes the fields given; PUT (`replace`) replaces every editable field (those left out become null). */
export async function updateAction(db: Db, id: string, input: Partial<ActionFields>, replace: boolean, now: Date) {
  const values = columns(input);
  if (replace)
    for (const key of ["roomUuid", "role", "reason", "expiresAt", "metadata"] as const)
      if (!(key in values)) values[key] = null;
  const row = await db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: table.id }).from(table).where(eq(table.id, id)).for("update");
    found(existing, ACTION_NOT_FOUND);
    await checkReferences(tx, [input], () => "");
    const [updated] = await tx
      .update(table)
      .set({ ...values, updatedAt: now })
      .where(eq(table.id, id))
      .returning();
    return updated;
  });
  return found(row, ACTION_NOT_FOUND);
}

/** Erases an action from the log; a 404 when there is none. */
export async function eraseAction(db: Db | Tx, id: string) {
  const deleted = await db.delete(table).where(eq(table.id, id)).returning({ id: table.id });
  if (!deleted.length) throw notFound(ACTION_NOT_FOUND);
}
