import type { Context } from "hono";
import { ADMINS, clientAddress, hasAnyRole, rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { callerRegion, startCheckout } from "./checkout.ts";
import type * as routes from "./products.routes.ts";
import {
  createProduct as createRow,
  deleteProduct as deleteRow,
  listProducts as listRows,
  loadProduct,
  oneTimeProduct,
  productRowView,
  productView,
  updateProduct as updateRow,
} from "./products.ts";

/** Whether the caller is an admin (who also sees the products no longer for sale); anyone else is simply not. */
async function isAdmin(c: Context<AppEnv>) {
  if (!c.var.auth || c.var.auth.type === "service") return false;
  return requireUser(c).then(
    ({ user }) => hasAnyRole(user.roles, ADMINS),
    () => false,
  );
}

export const createProduct: AppRouteHandler<typeof routes.createProduct> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  return c.json(productView(await createRow(db, c.req.valid("json"), clock.now()), null), 201);
};

export const listProducts: AppRouteHandler<typeof routes.listProducts> = async (c) => {
  const q = c.req.valid("query");
  const rows = await listRows(c.var.deps.db, q, await isAdmin(c));
  return c.json(rows.map(productRowView), 200);
};

export const getProduct: AppRouteHandler<typeof routes.getProduct> = async (c) =>
  c.json(productRowView(await loadProduct(c.var.deps.db, c.req.valid("param").id)), 200);

export const updateProduct: AppRouteHandler<typeof routes.updateProduct> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  const { db, clock } = c.var.deps;
  return c.json(productRowView(await updateRow(db, c.req.valid("param").id, c.req.valid("json"), clock.now())), 200);
};

export const deleteProduct: AppRouteHandler<typeof routes.deleteProduct> = async (c) => {
  await requireUser(c, { roles: ADMINS });
  await deleteRow(c.var.deps.db, c.req.valid("param").id);
  return c.body(null, 204);
};

export const checkoutProduct: AppRouteHandler<typeof routes.checkoutProduct> = async (c) => {
  const { user } = await requireUser(c);
  const product = await oneTimeProduct(c.var.deps.db, c.req.valid("param").id);
  await rateLimit(c, `payment-checkout:${user.uuid}`, 30, 600);
  const region = () => callerRegion(c.var.deps.geo, clientAddress(c));
  return c.json(await startCheckout(c.var.deps, user, product, "payment", region), 201);
};
