import type { Context } from "hono";
import { ADMINS, hasAnyRole, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden, found, notFound } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import type * as routes from "./devices.routes.ts";
import * as devices from "./devices.ts";

/** The devices of `userUuid` are theirs to see and remove; admins and services see everyone's. */
async function mayManage(c: Context<AppEnv>, userUuid: string, allowService: boolean) {
  if (allowService && c.var.auth?.type === "service") return;
  const { user } = await requireUser(c);
  if (user.uuid !== userUuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden();
}

export const register: AppRouteHandler<typeof routes.register> = async (c) => {
  const { user } = await requireUser(c);
  const { db, clock } = c.var.deps;
  const device = await devices.registerDevice(db, user.uuid, c.req.valid("json"), clock.now());
  return c.json(devices.deviceView(device), 201);
};

export const forgetByToken: AppRouteHandler<typeof routes.forgetByToken> = async (c) => {
  const { db } = c.var.deps;
  const device = await devices.deviceByToken(db, c.req.valid("param").token);
  if (!device) {
    await requireUser(c);
    throw notFound(devices.DEVICE_NOT_FOUND);
  }
  await mayManage(c, device.userUuid, false);
  await devices.deleteDevice(db, device.id);
  return c.body(null, 204);
};

export const forgetUserDevice: AppRouteHandler<typeof routes.forgetUserDevice> = async (c) => {
  const { a, b } = c.req.valid("param");
  await mayManage(c, a, false);
  await devices.deleteUserDevice(c.var.deps.db, a, b);
  return c.body(null, 204);
};

export const userDevice: AppRouteHandler<typeof routes.userDevice> = async (c) => {
  const { a, b } = c.req.valid("param");
  await mayManage(c, a, true);
  const device = found(await devices.userDevice(c.var.deps.db, a, b), devices.DEVICE_NOT_FOUND);
  return c.json(devices.deviceView(device), 200);
};

export const userDevices: AppRouteHandler<typeof routes.userDevices> = async (c) => {
  const id = c.req.valid("param").id;
  await mayManage(c, id, true);
  return c.json((await devices.devicesOf(c.var.deps.db, id)).map(devices.deviceView), 200);
};
