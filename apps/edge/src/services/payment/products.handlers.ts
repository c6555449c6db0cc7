import type { Context } from "hono";
import { adminHandlers } from "../../lib/admin-resource.ts";
import { ADMINS, clientAddress, hasAnyRole, rateLimit, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { callerRegion, startCheckout } from "./checkout.ts";
import * as routes from "./products.routes.ts";
import {
  createProduct as createRow,
  deleteProduct as deleteRow,
  listProducts as listRows,
  loadProduct,
  oneTimeProduct,
  productRowView,
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

const admin = adminHandlers({ view: productRowView, find: loadProduct });

// A new product sells no bundle yet: a bundle names its product once the product exists.
export const createProduct = admin.create(routes.createProduct, async (db, body, now) => ({
  product: await createRow(db, body, now),
  tokens: null,
}));

export const listProducts: AppRouteHandler<typeof routes.listProducts> = async (c) => {
  const q = c.req.valid("query");
  const rows = await listRows(c.var.deps.db, q, await isAdmin(c));
  return c.json(rows.map(productRowView), 200);
};

export const getProduct = admin.get(routes.getProduct);
export const updateProduct = admin.update(routes.updateProduct, updateRow);
export const deleteProduct = admin.remove(routes.deleteProduct, deleteRow);

export const checkoutProduct: AppRouteHandler<typeof routes.checkoutProduct> = async (c) => {
  const { user } = await requireUser(c);
  const product = await oneTimeProduct(c.var.deps.db, c.req.valid("param").id);
  await rateLimit(c, `payment-checkout:${user.uuid}`, 30, 600);
  const region = () => callerRegion(c.var.deps.geo, clientAddress(c));
  return c.json(await startCheckout(c.var.deps, user, product, "payment", region), 201);
};
