import { createRouter } from "../../lib/openapi.ts";
import { localCheckoutRoutes } from "./local-checkout.routes.ts";
import { productRoutes } from "./products.routes.ts";
import { subscriptionRoutes } from "./subscriptions.routes.ts";
import { webhookRoutes } from "./webhooks.routes.ts";

export function paymentService() {
  const router = createRouter();
  router.route("/", productRoutes);
  router.route("/", subscriptionRoutes);
  router.route("/", webhookRoutes);
  router.route("/", localCheckoutRoutes);
  return router;
}
