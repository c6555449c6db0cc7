import { rateLimit } from "../../lib/auth.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { requireOffered } from "./brand.ts";
import { migrateLinks as mapLinks, storeAnalysis } from "./catalogue.ts";
import { callerCrate } from "./crate-access.ts";
import type * as routes from "./exports.routes.ts";
import { appleDeveloperToken, exportToApple, exportToSpotify } from "./exports.ts";

export const spotify: AppRouteHandler<typeof routes.spotify> = async (c) => {
  const body = c.req.valid("json");
  const { crate, user } = await callerCrate(c, body.crateUuid, "read");
  requireOffered(c.var.deps, "spotify", "exports");
  await rateLimit(c, `export:${user.uuid}`, 20, 3600);
  return c.json(await exportToSpotify(c.var.deps, crate, body.accessToken, body.name), 200);
};

export const apple: AppRouteHandler<typeof routes.apple> = async (c) => {
  const body = c.req.valid("json");
  const { crate, user } = await callerCrate(c, body.crateUuid, "read");
  requireOffered(c.var.deps, "apple", "exports");
  const developerToken = appleDeveloperToken(c.var.deps);
  await rateLimit(c, `export:${user.uuid}`, 20, 3600);
  return c.json(await exportToApple(c.var.deps, crate, developerToken, body.musicUserToken, body.name), 200);
};

export const cyaniteWebhook: AppRouteHandler<typeof routes.cyaniteWebhook> = async (c) => {
  const { db, config } = c.var.deps;
  const raw = await c.req.text();
  return c.json(
    await storeAnalysis(db, config.providers.cyaniteWebhookSecret, raw, c.req.header("signature") ?? ""),
    200,
  );
};

export const migrateLinks: AppRouteHandler<typeof routes.migrateLinks> = async (c) =>
  c.json(await mapLinks(c.var.deps.db, c.req.valid("json").links), 200);
