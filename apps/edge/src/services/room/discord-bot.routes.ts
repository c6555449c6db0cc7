import { z } from "@hono/zod-openapi";
import { contracts, jsonBody, ok } from "../../lib/openapi.ts";
import { signedByDiscord } from "./discord-signature.ts";

const { route } = contracts(["Discord"]);

const Snowflake = z.string().regex(/^\d{1,25}$/, "a Discord id");
const Name = z.string().min(1).max(100);

/** An option's value, as Discord sends it: Booth's are strings (a room's slug, a channel's id). */
const ValueOption = z.looseObject({
  name: Name,
  type: z.number().int().min(1).max(11),
  value: z.string().max(6000).optional(),
});
/** An option of a subcommand, or a subcommand of a group (`/booth announce on`) with its own options. */
const CommandOption = ValueOption.extend({ options: z.array(ValueOption).max(25).optional() });

/** What Booth reads of an interaction (Discord sends more; the rest is let through unread). */
export const InteractionSchema = z
  .looseObject({
    type: z.number().int().min(1).max(5),
    id: Snowflake.optional(),
    guild_id: Snowflake.optional(),
    data: z
      .looseObject({
        name: Name,
        options: z
          .array(
            z.looseObject({
              name: Name,
              type: z.number().int().min(1).max(11),
              options: z.array(CommandOption).max(25).optional(),
            }),
          )
          .max(25)
          .optional(),
      })
      .optional(),
    member: z
      .looseObject({
        /** The member's permissions in the channel, a bitfield written in decimal. */
        permissions: z
          .string()
          .regex(/^\d{1,40}$/, "a permissions bitfield")
          .optional(),
        user: z.looseObject({ id: Snowflake.optional() }).optional(),
      })
      .optional(),
  })
  .openapi("DiscordInteraction");

const Button = z.object({ type: z.literal(2), style: z.literal(5), label: z.string(), url: z.string() });

/** Booth's answer: PONG (type 1), or a message (type 4), ephemeral when `flags` is 64. */
export const InteractionAnswerSchema = z
  .object({
    type: z.number().int(),
    data: z
      .object({
        content: z.string(),
        flags: z.number().int().optional(),
        components: z.array(z.object({ type: z.literal(1), components: z.array(Button) })).optional(),
        /** Empty: names in rooms and songs never ping anyone. */
        allowed_mentions: z.object({ parse: z.array(z.string()) }),
      })
      .optional(),
  })
  .openapi("DiscordInteractionAnswer");

export const interactions = route("post", "/discord/interactions", {
  summary:
    "Discord's interactions with Booth's bot (the interactions endpoint URL): signed by Discord with Ed25519; a PING is answered PONG, a /booth command with a message",
  middleware: [signedByDiscord] as const,
  request: {
    headers: z.object({
      "x-signature-ed25519": z.string().max(200).optional(),
      "x-signature-timestamp": z.string().max(20).optional(),
    }),
    ...jsonBody(InteractionSchema),
  },
  responses: ok(InteractionAnswerSchema, 400, 401, 503),
});
