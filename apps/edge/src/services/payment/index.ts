import { createRouter, type Router } from "../../lib/openapi.ts";
import * as checkoutHandlers from "./checkouts.handlers.ts";
import * as checkouts from "./checkouts.routes.ts";
import * as localHandlers from "./local-checkout.handlers.ts";
import * as local from "./local-checkout.routes.ts";
import * as productHandlers from "./products.handlers.ts";
import * as products from "./products.routes.ts";
import * as subscriptionHandlers from "./subscriptions.handlers.ts";
import * as subscriptions from "./subscriptions.routes.ts";
import * as webhookHandlers from "./webhooks.handlers.ts";
import * as webhooks from "./webhooks.routes.ts";

// The order of registration is the order of matching: fixed paths before the parametrised ones beside them.

const registerProducts = (router: Router) =>
  router
    .openapi(products.createProduct, productHandlers.createProduct)
    .openapi(products.listProducts, productHandlers.listProducts)
    .openapi(products.getProduct, productHandlers.getProduct)
    .openapi(products.updateProduct, productHandlers.updateProduct)
    .openapi(products.deleteProduct, productHandlers.deleteProduct)
    .openapi(products.checkoutProduct, productHandlers.checkoutProduct);

const registerSubscriptions = (router: Router) =>
  router
    .openapi(subscriptions.countSubscriptions, subscriptionHandlers.countSubscriptions)
    .openapi(subscriptions.subscriptionPlans, subscriptionHandlers.subscriptionPlans)
    .openapi(subscriptions.ownSubscriptions, subscriptionHandlers.ownSubscriptions)
    .openapi(subscriptions.userSubscriptions, subscriptionHandlers.userSubscriptions)
    .openapi(subscriptions.subscriptionCheckout, subscriptionHandlers.subscriptionCheckout)
    .openapi(subscriptions.customerPortal, subscriptionHandlers.customerPortal);

const registerWebhooks = (router: Router) =>
  router
    .openapi(webhooks.stripeWebhook, webhookHandlers.stripeWebhook)
    .openapi(webhooks.appleWebhook, webhookHandlers.appleWebhook);

const registerLocalCheckout = (router: Router) =>
  router
    .openapi(checkouts.localCheckout, checkoutHandlers.localCheckout)
    .openapi(checkouts.completeLocalCheckout, checkoutHandlers.completeLocalCheckout)
    .openapi(local.portalPage, localHandlers.portalPage)
    .openapi(local.cancelSubscription, localHandlers.cancelSubscription);

export function paymentService() {
  const router = createRouter();
  registerProducts(router);
  registerSubscriptions(router);
  registerWebhooks(router);
  registerLocalCheckout(router);
  return router;
}
