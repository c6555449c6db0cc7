import { rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./gen-songs.routes.ts";
import { checkQuote, costOf, startGeneration } from "./gen-songs.ts";

export const cost: AppRouteHandler<typeof routes.cost> = (c) => {
  const { duration } = c.req.valid("json");
  return c.json({ duration, tokenCost: costOf(duration) }, 200);
};

export const generate: AppRouteHandler<typeof routes.generate> = async (c) => {
  const { user } = await requireUser(c);
  const body = c.req.valid("json");
  const tokenCost = checkQuote(body.duration, body.tokenCost);
  await rateLimit(c, `gen-songs:${user.uuid}`, 20, 3600);
  const key = c.req.valid("header")["idempotency-key"];
  return c.json(await startGeneration(c.var.deps, user.uuid, body, tokenCost, key), 202);
};
