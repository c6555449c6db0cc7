import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, Offset, UuidParam } from "../../lib/openapi.ts";
import { PublicProfileSchema } from "../../lib/profiles.ts";
import { MESSAGE_MAX_LENGTH } from "./direct-messages.ts";

const tags = ["Direct messages"];

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

export const conversations = createRoute({
  method: "get",
  path: "/direct-messages/conversations",
  tags,
  summary: "The caller's conversations, the latest written first, with unread counts and the total unread",
  security: bearer,
  request: {
    query: z.object({ skip: Offset, take: z.coerce.number().int().min(1).max(100).default(50) }),
  },
  responses: {
    200: json(
      z
        .object({ data: z.array(ConversationSchema), total: z.number().int(), unreadTotal: z.number().int() })
        .openapi("ConversationPage"),
    ),
    ...errors(400, 401, 403),
  },
});

export const unread = createRoute({
  method: "get",
  path: "/direct-messages/unread",
  tags,
  summary: "How many direct messages to the caller are unread",
  security: bearer,
  responses: { 200: json(UnreadSchema), ...errors(401, 403) },
});

export const events = createRoute({
  method: "get",
  path: "/direct-messages/events",
  tags,
  summary:
    "Server-sent events for the caller: `unread` at once ({unreadTotal}), then `message` ({message, unreadTotal}) " +
    "for each message they send or receive and `read` ({conversationId, unreadTotal}) when they read one, from any edge",
  security: bearer,
  responses: {
    200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } },
    ...errors(401, 403),
  },
});

export const conversationWith = createRoute({
  method: "get",
  path: "/direct-messages/with/{id}",
  tags,
  summary: "The caller's conversation with user {id} (404 when they have never written to each other)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(ConversationSchema), ...errors(400, 401, 403, 404) },
});

export const send = createRoute({
  method: "post",
  path: "/direct-messages",
  tags,
  summary: "Send a friend a message (a verified profile; not across a block; 30 a minute)",
  security: bearer,
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

export const messages = createRoute({
  method: "get",
  path: "/direct-messages/conversations/{id}/messages",
  tags,
  summary: "A conversation's messages, newest first; `before` (a message id) pages back (its two people only)",
  security: bearer,
  request: {
    params: ConversationIdParam,
    query: z.object({
      before: z.uuid().optional(),
      take: z.coerce.number().int().min(1).max(100).default(50),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          data: z.array(MessageSchema),
          nextBefore: z
            .uuid()
            .nullable()
            .openapi({ description: "`before` for the next page; null at the first message" }),
        })
        .openapi("DirectMessagePage"),
    ),
    ...errors(400, 401, 403, 404),
  },
});

export const markRead = createRoute({
  method: "post",
  path: "/direct-messages/conversations/{id}/read",
  tags,
  summary: "Mark what the caller received in a conversation read (its two people only)",
  security: bearer,
  request: { params: ConversationIdParam },
  responses: {
    200: json(z.object({ marked: z.number().int(), unreadTotal: z.number().int() }).openapi("DirectMessagesRead")),
    ...errors(400, 401, 403, 404),
  },
});
