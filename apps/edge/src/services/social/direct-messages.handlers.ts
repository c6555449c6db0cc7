import { streamSSE } from "hono/streaming";
import { rateLimit, requireUser } from "../../lib/auth.ts";
import { found } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./direct-messages.routes.ts";
import * as dms from "./direct-messages.ts";

/** Messages one person may send a minute, over all their conversations. */
export const MESSAGES_PER_MINUTE = 30;
/**
 * An event stream lasts this long, then ends and the browser's EventSource comes back (to any edge): the caller's
 * account is checked again (a ban, a sign-out everywhere), and no connection outlives a deploy by much.
 */
export const STREAM_SECONDS = 300;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_SECONDS = 25;

export const conversations: AppRouteHandler<typeof routes.conversations> = async (c) => {
  const { user } = await requireUser(c);
  const { skip, take } = c.req.valid("query");
  return c.json(await dms.conversationsOf(c.var.deps.db, user.uuid, skip, take), 200);
};

export const unread: AppRouteHandler<typeof routes.unread> = async (c) => {
  const { user } = await requireUser(c);
  return c.json({ unreadTotal: await dms.unreadTotal(c.var.deps.db, user.uuid) }, 200);
};

export const conversationWith: AppRouteHandler<typeof routes.conversationWith> = async (c) => {
  const { user } = await requireUser(c);
  const { db } = c.var.deps;
  const row = found(await dms.conversationWith(db, user.uuid, c.req.valid("param").id), dms.CONVERSATION_NOT_FOUND);
  return c.json(await dms.conversationEntry(db, user.uuid, row), 200);
};

export const send: AppRouteHandler<typeof routes.send> = async (c) => {
  const { user } = await requireUser(c);
  const { toUuid, text } = c.req.valid("json");
  const { db, cache, clock } = c.var.deps;
  await rateLimit(c, `direct-message:${user.uuid}`, MESSAGES_PER_MINUTE, 60);
  const { message } = await dms.send(db, user, toUuid, text, clock.now());
  const view = dms.messageView(message);
  const [recipientUnread, senderUnread] = await Promise.all([
    dms.unreadTotal(db, toUuid),
    dms.unreadTotal(db, user.uuid),
  ]);
  // Both people hear it (the sender's other tabs too); a publish that fails loses only the live copy, never the message.
  await Promise.all([
    dms.publish(cache, toUuid, { type: "message", message: view, unreadTotal: recipientUnread }),
    dms.publish(cache, user.uuid, { type: "message", message: view, unreadTotal: senderUnread }),
  ]).catch((err) => c.var.deps.logger({ level: "warn", msg: "direct message not published", err: String(err) }));
  return c.json(view, 201);
};

export const messages: AppRouteHandler<typeof routes.messages> = async (c) => {
  const { user } = await requireUser(c);
  const { db } = c.var.deps;
  const conversation = await dms.ownConversation(db, user.uuid, c.req.valid("param").id);
  const { before, take } = c.req.valid("query");
  return c.json(await dms.messagesOf(db, conversation.id, before, take), 200);
};

export const markRead: AppRouteHandler<typeof routes.markRead> = async (c) => {
  const { user } = await requireUser(c);
  const { db, cache, clock } = c.var.deps;
  const conversation = await dms.ownConversation(db, user.uuid, c.req.valid("param").id);
  const marked = await dms.markRead(db, user.uuid, conversation.id, clock.now());
  const unreadTotal = await dms.unreadTotal(db, user.uuid);
  if (marked > 0)
    await dms
      .publish(cache, user.uuid, { type: "read", conversationId: conversation.id, unreadTotal })
      .catch((err) => c.var.deps.logger({ level: "warn", msg: "direct message read not published", err: String(err) }));
  return c.json({ marked, unreadTotal }, 200);
};

export const events: AppRouteHandler<typeof routes.events> = async (c) => {
  const { user } = await requireUser(c);
  const { db, cache } = c.var.deps;
  const response = streamSSE(c, async (stream) => {
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    const stop = await cache.subscribe(dms.userChannel(user.uuid), (message) => {
      queue.push(message);
      wake?.();
    });
    let ended = false;
    const end = () => {
      ended = true;
      wake?.();
    };
    stream.onAbort(end);
    const lifetime = setTimeout(end, STREAM_SECONDS * 1000);
    const keepAlive = setInterval(() => {
      void stream.write(": keep-alive\n\n").catch(end);
    }, KEEP_ALIVE_SECONDS * 1000);
    try {
      // Subscribed first, then counted: nothing sent in between is missed.
      await stream.writeSSE({
        event: "unread",
        data: JSON.stringify({ unreadTotal: await dms.unreadTotal(db, user.uuid) }),
        retry: 2000,
      });
      while (!ended) {
        const next = queue.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        const event = JSON.parse(next) as dms.DirectMessageEvent;
        await stream.writeSSE({ event: event.type, data: next });
      }
    } finally {
      clearTimeout(lifetime);
      clearInterval(keepAlive);
      await stop();
    }
  });
  // The stream is the answer the contract documents (text/event-stream); its type is not one a handler returns.
  return response as never;
};
