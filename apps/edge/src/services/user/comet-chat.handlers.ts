import { addressBucket, rateLimit, requireService, requireToken, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { cometChatFrom } from "../../ports/cometchat.ts";
import { chatUsers } from "./chat-users.ts";
import type * as routes from "./comet-chat.routes.ts";

/** How long the ghost's auth token is handed out before a new one is made. */
const GHOST_TOKEN_SECONDS = 12 * 3600;

export const userToken: AppRouteHandler<typeof routes.userToken> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const chat = cometChatFrom(c.var.deps.config.integrations);
  await rateLimit(c, `cometchat:user:${user.uuid}`, 60, 3600);
  const [me] = await chatUsers(c.var.deps.db, [user.uuid]);
  await chat.ensureUser(me ?? { uid: user.uuid, name: user.uuid });
  const authToken = await chat.createAuthToken(user.uuid);
  return c.json({ authToken, uid: user.uuid, appId: chat.appId, region: chat.region }, 200);
};

export const ghostToken: AppRouteHandler<typeof routes.ghostToken> = async (c) => {
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
};

export const createUsers: AppRouteHandler<typeof routes.createUsers> = async (c) => {
  await requireService(c);
  const chat = cometChatFrom(c.var.deps.config.integrations);
  const wanted = [...new Set(c.req.valid("json").userUuids.map((u) => u.toLowerCase()))];
  const users = await chatUsers(c.var.deps.db, wanted);
  const result = { created: [] as string[], existing: [] as string[], notFound: [] as string[] };
  const found = new Set(users.map((u) => u.uid));
  result.notFound = wanted.filter((u) => !found.has(u));
  for (const user of users) result[await chat.ensureUser(user)].push(user.uid);
  return c.json(result, 200);
};
