import { createRouter } from "../../lib/openapi.ts";
import { avatarRoutes } from "./avatars.routes.ts";
import { bundleRoutes } from "./bundles.routes.ts";
import { consumableRoutes } from "./consumables.routes.ts";
import { seasonRoutes } from "./seasons.routes.ts";
import { tokenRoutes } from "./tokens.routes.ts";

export function merchService() {
  const router = createRouter();
  router.route("/", tokenRoutes);
  router.route("/", consumableRoutes);
  router.route("/", bundleRoutes);
  router.route("/", seasonRoutes);
  router.route("/", avatarRoutes);
  return router;
}
