import type { Context } from "hono";
import type { AppEnv } from "./context.ts";

/**
 * Discord mode (decision 0028): a request the web made while answering the Discord Activity carries
 * `x-booth-mode: discord`, and the edge applies the spec's Discord rules to it (explicit songs are left out of search
 * and queueing unless the caller's profile allows explicit audio). It is a content preference the person's own
 * client states, not a permission: a client that leaves the header out gets Booth's ordinary rules, where explicit
 * songs appear only when asked for (`explicit=true`).
 */
export const DISCORD_MODE_HEADER = "x-booth-mode";

export const inDiscordMode = (c: Context<AppEnv>) =>
  c.req.header(DISCORD_MODE_HEADER)?.trim().toLowerCase() === "discord";

export const EXPLICIT_IN_DISCORD =
  "Explicit songs are left out in Discord unless your profile allows explicit audio (allowExplicitAudio).";
