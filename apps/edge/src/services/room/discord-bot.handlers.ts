import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./discord-bot.routes.ts";
import { answerInteraction } from "./discord-bot.ts";

/** Discord signed the request (the contract's `signedByDiscord` checked it before the body was read as JSON). */
export const interactions: AppRouteHandler<typeof routes.interactions> = async (c) =>
  c.json(await answerInteraction(c.var.deps, c.req.valid("json")), 200);
