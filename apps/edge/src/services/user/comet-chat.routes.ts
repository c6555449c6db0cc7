import { type Db, schema } from "@booth/db";
import { createRoute, z } from "@hono/zod-openapi";
import { eq, inArray } from "drizzle-orm";
import { addressBucket, rateLimit, requireService, requireToken, requireUser } from "../../lib/auth.ts";
import { bearer, createRouter, errors, json, jsonBody } from "../../lib/openapi.ts";
import { type ChatUser, cometChatFrom } from "../../ports/cometchat.ts";

/**
 * Chat through CometChat: each Booth user is a CometChat user (uid = user uuid, name = nickname); people without an
 * account read as one shared "ghost" user.
 */
export const cometChatRoutes = createRouter();
const tags = ["CometChat"];

/** How long the ghost's auth token is handed out before a new one is made. */
const GHOST_TOKEN_SECONDS = 12 * 3600;

const ChatToken = z
  .object({ authToken: z.string(), uid: z.string(), appId: z.string(), region: z.string().nullable() })
  .openapi("CometChatToken");

/** The CometChat user of each Booth account: its nickname and picture. */
export async function chatUsers(db: Db, uuids: string[]): Promise<ChatUser[]> {
  if (!uuids.length) return [];
  const rows = await db
    .select({
      uid: schema.users.uuid,
      nickname: schema.profiles.nickname,
      picture: schema.profiles.profilePicture,
    })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(inArray(schema.users.uuid, uuids));
  return rows.map((r) => ({ uid: r.uid, name: r.nickname ?? r.uid, avatar: r.picture }));
}

cometChatRoutes.openapi(
  createRoute({
    method: "get",
    path: "/comet-chat/user-token",
    tags,
    summary: "A CometChat auth token for the caller (their CometChat user is created on first use)",
    security: bearer,
    responses: { 200: json(ChatToken), ...errors(401, 403, 429, 502, 503) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const chat = cometChatFrom(c.var.deps.config.integrations);
    await rateLimit(c, `cometchat:user:${user.uuid}`, 60, 3600);
    const [me] = await chatUsers(c.var.deps.db, [user.uuid]);
    await chat.ensureUser(me ?? { uid: user.uuid, name: user.uuid });
    const authToken = await chat.createAuthToken(user.uuid);
    return c.json({ authToken, uid: user.uuid, appId: chat.appId, region: chat.region }, 200);
  },
);

cometChatRoutes.openapi(
  createRoute({
    method: "get",
    path: "/comet-chat/ghost-token",
    tags,
    summary: "The shared read-only CometChat user's token, for guests (any token)",
    security: bearer,
    responses: { 200: json(ChatToken), ...errors(401, 429, 502, 503) },
  }),
  async (c) => {
    requireToken(c);
    const chat = cometChatFrom(c.var.deps.config.integrations);
    await rateLimit(c, `cometchat:ghost:${addressBucket(c)}`, 120, 3600);
    const { cache } = c.var.deps;
    const key = `cometchat:ghost-token:${chat.appId}:${chat.ghostUid}`;
    let authToken = await cache.get(key);
    if (!authToken) {
      await chat.ensureUser({ uid: chat.ghostUid, name: "Listener" });
      authToken = await chat.createAuthToken(chat.ghostUid);
      await cache.set(key, authToken, GHOST_TOKEN_SECONDS);
    }
    return c.json({ authToken, uid: chat.ghostUid, appId: chat.appId, region: chat.region }, 200);
  },
);

cometChatRoutes.openapi(
  createRoute({
    method: "post",
    path: "/comet-chat/create-users",
    tags,
    summary: "Create the CometChat users of Booth accounts (service)",
    security: bearer,
    request: jsonBody(
      z
        .object({ userUuids: z.array(z.uuid()).min(1).max(100) })
        .strict()
        .openapi("CometChatCreateUsers"),
    ),
    responses: {
      200: json(
        z
          .object({ created: z.array(z.uuid()), existing: z.array(z.uuid()), notFound: z.array(z.uuid()) })
          .openapi("CometChatUsersCreated"),
      ),
      ...errors(400, 401, 403, 502, 503),
    },
  }),
  async (c) => {
    await requireService(c);
    const chat = cometChatFrom(c.var.deps.config.integrations);
    const wanted = [...new Set(c.req.valid("json").userUuids.map((u) => u.toLowerCase()))];
    const users = await chatUsers(c.var.deps.db, wanted);
    const result = { created: [] as string[], existing: [] as string[], notFound: [] as string[] };
    const found = new Set(users.map((u) => u.uid));
    result.notFound = wanted.filter((u) => !found.has(u));
    for (const user of users) result[await chat.ensureUser(user)].push(user.uid);
    return c.json(result, 200);
  },
);
