import { createRouter } from "../../lib/openapi.ts";
import { avatarRoutes } from "./avatars.routes.ts";
import { bundleRoutes } from "./bundles.routes.ts";
import { consumableRoutes } from "./consumables.routes.ts";
import { seasonRoutes } from "./seasons.routes.ts";
import * as tokenHandlers from "./tokens.handlers.ts";
import * as tokens from "./tokens.routes.ts";

export function merchService() {
  const router = createRouter()
    .openapi(tokens.openAccount, tokenHandlers.openAccount)
    .openapi(tokens.ownAccount, tokenHandlers.ownAccount)
    .openapi(tokens.getAccount, tokenHandlers.getAccount)
    .openapi(tokens.commitHold, tokenHandlers.commitHold)
    .openapi(tokens.voidHold, tokenHandlers.voidHold)
    .openapi(tokens.creditAccount, tokenHandlers.creditAccount);
  router.route("/", consumableRoutes);
  router.route("/", bundleRoutes);
  router.route("/", seasonRoutes);
  router.route("/", avatarRoutes);
  return router;
}
