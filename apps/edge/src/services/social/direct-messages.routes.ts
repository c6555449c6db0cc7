import { z } from "@hono/zod-openapi";
import { callersOwn, oneItem, skipTake } from "../../lib/contract-families.ts";
import { contracts, errors, json, jsonBody, ok } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../user/public.ts";
import { MESSAGE_MAX_LENGTH } from "./direct-messages.ts";

const { authed } = contracts(["Direct messages"]);

const MessageFields = z.object({
  id: z.uuid(),
  conversationId: z.uuid(),
  senderUuid: z.uuid(),
  recipientUuid: z.uuid(),
  text: z.string().openapi({ description: "Plain text, never markup: clients show it as text" }),
  createdAt: z.string(),
  readAt: z.string().nullable().openapi({ description: "When its recipient read it; null while unread" }),
});
const MessageSchema = MessageFields.openapi("DirectMessage");

const ConversationSchema = z
  .object({
    id: z.uuid(),
    withUuid: z.uuid(),
    with: PublicProfileSchema.nullable().openapi({ description: "The other person; null once their account is gone" }),
    // The fields inline: MessageSchema.nullable() would mark the DirectMessage component itself nullable.
    lastMessage: MessageFields.nullable().openapi({ description: "The latest message; null when there is none" }),
    lastMessageAt: z.string(),
    unread: z.number().int().openapi({ description: "Messages to the caller in it not yet read" }),
  })
  .openapi("Conversation");

const UnreadSchema = z
  .object({ unreadTotal: z.number().int().openapi({ description: "Unread messages over all conversations" }) })
  .openapi("DirectMessageUnread");

const ConversationIdParam = z.object({ id: z.uuid() });

export const conversations = authed("get", "/direct-messages/conversations", {
  summary: "The caller's conversations, the latest written first, with unread counts and the total unread",
  request: {
    query: skipTake(100, 50),
  },
  responses: ok(
    z
      .object({ data: z.array(ConversationSchema), total: z.number().int(), unreadTotal: z.number().int() })
      .openapi("ConversationPage"),
    400,
    401,
    403,
  ),
});

export const unread = callersOwn(
  authed,
  "/direct-messages/unread",
  "How many direct messages to the caller are unread",
  UnreadSchema,
);

export const events = authed("get", "/direct-messages/events", {
  summary:
    "Server-sent events for the caller: `unread` at once ({unreadTotal}), then `message` ({message, unreadTotal}) " +
    "for each message they send or receive and `read` ({conversationId, unreadTotal}) when they read one, from any edge",
  responses: {
    200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } },
    ...errors(401, 403),
  },
});

export const conversationWith = oneItem(
  authed,
  "/direct-messages/with/{id}",
  "The caller's conversation with user {id} (404 when they have never written to each other)",
  ConversationSchema,
);

export const send = authed("post", "/direct-messages", {
  summary: "Send a friend a message (a verified profile; not across a block; 30 a minute)",
  request: jsonBody(
    z.object({
      toUuid: z.uuid(),
      text: z
        .string()
        .max(MESSAGE_MAX_LENGTH, `must be at most ${MESSAGE_MAX_LENGTH} characters`)
        .trim()
        .min(1, "must not be empty"),
    }),
  ),
  responses: { 201: json(MessageSchema, "Sent"), ...errors(400, 401, 403, 404, 429) },
});

export const messages = authed("get", "/direct-messages/conversations/{id}/messages", {
  summary: "A conversation's messages, newest first; `before` (a message id) pages back (its two people only)",
  request: {
    params: ConversationIdParam,
    query: z.object({
      before: z.uuid().optional(),
      take: z.coerce.number().int().min(1).max(100).default(50),
    }),
  },
  responses: ok(
    z
      .object({
        data: z.array(MessageSchema),
        nextBefore: z
          .uuid()
          .nullable()
          .openapi({ description: "`before` for the next page; null at the first message" }),
      })
      .openapi("DirectMessagePage"),
    400,
    401,
    403,
    404,
  ),
});

export const markRead = authed("post", "/direct-messages/conversations/{id}/read", {
  summary: "Mark what the caller received in a conversation read (its two people only)",
  request: { params: ConversationIdParam },
  responses: ok(
    z.object({ marked: z.number().int(), unreadTotal: z.number().int() }).openapi("DirectMessagesRead"),
    400,
    401,
    403,
    404,
  ),
});
