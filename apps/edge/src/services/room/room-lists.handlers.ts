import { requireService, requireUser, STAFF } from "../../lib/auth.ts";
import { parseCrudQuery, parseSelection, pickFields } from "../../lib/crud/index.ts";
import { badRequest } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { sqlJson } from "../../lib/sql-json.ts";
import { profilesOf } from "../user/public.ts";
import { isUuid, loadRoom } from "./access.ts";
import type * as routes from "./room-lists.routes.ts";
import * as lists from "./room-lists.ts";
import { favoritesOwner, roomViews, settingsView } from "./rooms.ts";

export const publicRooms: AppRouteHandler<typeof routes.publicRooms> = async (c) => {
  const { limit, offset } = c.req.valid("query");
  return sqlJson(c, await lists.publicRoomsJson(c.var.deps.db, favoritesOwner(c), limit, offset), 200);
};

export const promotedRooms: AppRouteHandler<typeof routes.promotedRooms> = async (c) => {
  const providers = (c.req.valid("query").providers ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return c.json(await roomViews(c, await lists.promotedRooms(c.var.deps.db, providers)), 200);
};

export const privateCount: AppRouteHandler<typeof routes.privateCount> = async (c) =>
  c.json({ count: await lists.privateRoomCount(c.var.deps.db) }, 200);

export const roomByUuid: AppRouteHandler<typeof routes.roomByUuid> = async (c) => {
  const row = await lists.roomRow(c.var.deps.db, c.req.valid("param").uuid);
  return c.json((await roomViews(c, [row]))[0], 200);
};

export const multipleRooms: AppRouteHandler<typeof routes.multipleRooms> = async (c) => {
  const raw = c.req.valid("query").room ?? [];
  const ids = [...new Set((Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(",")).map((s) => s.trim()))].filter(
    Boolean,
  );
  const bad = ids.filter((id) => !isUuid(id));
  if (bad.length) throw badRequest(bad.map((id) => `room: ${id} is not a uuid`));
  if (ids.length > 100) throw badRequest("room: at most 100 rooms at once");
  if (!ids.length) return c.json([], 200);
  return c.json(await roomViews(c, await lists.roomRowsIn(c.var.deps.db, ids)), 200);
};

export const myRooms: AppRouteHandler<typeof routes.myRooms> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  return c.json(await roomViews(c, await lists.roomsRunBy(db, user.uuid, clock.now())), 200);
};

export const ownedRooms: AppRouteHandler<typeof routes.ownedRooms> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  return c.json(await roomViews(c, await lists.roomsOwnedBy(c.var.deps.db, user.uuid)), 200);
};

export const roomsWithPasswords: AppRouteHandler<typeof routes.roomsWithPasswords> = async (c) => {
  const admitted = await lists.roomsAdmitting(c.var.deps.db, c.req.valid("json").rooms);
  return c.json(await roomViews(c, admitted), 200);
};

export const favoriteRooms: AppRouteHandler<typeof routes.favoriteRooms> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const query = c.req.valid("query");
  const owner = query.userUuid ?? user.uuid;
  const withPrivate = query.includePrivate === "true" && owner === user.uuid;
  return c.json(await roomViews(c, await lists.favoriteRoomsOf(c.var.deps.db, owner, withPrivate)), 200);
};

export const recordRecent: AppRouteHandler<typeof routes.recordRecent> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db, clock } = c.var.deps;
  const { roomUuid } = c.req.valid("json");
  await loadRoom(db, { uuid: roomUuid });
  const visitedAt = await lists.recordVisit(db, user.uuid, roomUuid, clock.now());
  return c.json({ roomUuid, visitedAt: visitedAt.toISOString() }, 201);
};

export const recentRooms: AppRouteHandler<typeof routes.recentRooms> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const rows = await lists.recentRoomsOf(c.var.deps.db, user.uuid, c.req.valid("query").limit);
  return c.json(await roomViews(c, rows), 200);
};

export const friendsActivity: AppRouteHandler<typeof routes.friendsActivity> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const { db } = c.var.deps;
  const rows = await lists.friendsActivity(db, user.uuid);
  const roomUuids = [...new Set(rows.map((r) => r.roomUuid))];
  const [people, rooms] = await Promise.all([
    profilesOf(db, [...new Set(rows.map((r) => r.userUuid))]),
    roomUuids.length ? lists.roomRowsIn(db, roomUuids).then((found) => roomViews(c, found)) : [],
  ]);
  const personOf = new Map(people.map((p) => [p.uuid, p]));
  const roomOf = new Map(rooms.map((r) => [r.uuid, r]));
  return c.json(
    rows.flatMap((r) => {
      const person = personOf.get(r.userUuid);
      const room = roomOf.get(r.roomUuid);
      if (!person || !room) return [];
      return [
        {
          person,
          relation: r.friend ? ("friend" as const) : ("following" as const),
          since: r.joinedAt.toISOString(),
          room,
        },
      ];
    }),
    200,
  );
};

export const recentlyVisited: AppRouteHandler<typeof routes.recentlyVisited> = async (c) => {
  const { db, clock } = c.var.deps;
  const since = new Date(clock.now().getTime() - 24 * 3600 * 1000);
  return c.json(await roomViews(c, await lists.mostVisitedSince(db, since, c.req.valid("query").limit)), 200);
};

export const discordRooms: AppRouteHandler<typeof routes.discordRooms> = async (c) =>
  c.json(await roomViews(c, await lists.guildRooms(c.var.deps.db, c.req.valid("param").guild)), 200);

export const serviceList: AppRouteHandler<typeof routes.serviceList> = async (c) => {
  await requireService(c);
  const { take, skip } = c.req.valid("query");
  const { rows, total } = await lists.allRooms(c.var.deps.db, take, skip);
  return c.json({ data: await roomViews(c, rows), total }, 200);
};

export const serviceRoom: AppRouteHandler<typeof routes.serviceRoom> = async (c) => {
  await requireService(c);
  const { db, clock } = c.var.deps;
  return c.json(await settingsView(db, await lists.roomRow(db, c.req.valid("param").id), clock.now()), 200);
};

export const adminRooms: AppRouteHandler<typeof routes.adminRooms> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const query = parseCrudQuery(c.req.valid("query"), lists.ADMIN_ROOM_CRUD);
  const page = await lists.adminRoomPage(c.var.deps.db, query);
  const views = await roomViews(c, page.data);
  return c.json({ ...page, data: views.map((v) => pickFields(v, query.fields)) }, 200);
};

export const adminRoom: AppRouteHandler<typeof routes.adminRoom> = async (c) => {
  await requireUser(c, { roles: STAFF });
  const selection = parseSelection(c.req.valid("query"), lists.ADMIN_ROOM_CRUD);
  const { db, clock } = c.var.deps;
  const row = await lists.roomRow(db, c.req.valid("param").id);
  return c.json(pickFields(await settingsView(db, row, clock.now()), selection.fields), 200);
};

export const roomBySlug: AppRouteHandler<typeof routes.roomBySlug> = async (c) => {
  const row = await lists.roomRowByKey(c.var.deps.db, c.req.valid("param").slug.toLowerCase());
  return c.json((await roomViews(c, [row]))[0], 200);
};
