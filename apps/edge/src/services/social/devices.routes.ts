import { schema } from "@booth/db";
import { DevicePlatform, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq } from "drizzle-orm";
import type { Context } from "hono";
import { ADMINS, hasAnyRole, requireUser } from "../../lib/auth.ts";
import type { AppEnv } from "../../lib/context.ts";
import { forbidden, notFound } from "../../lib/errors.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";

export const devicesRoutes = createRouter();
const tags = ["Devices"];

const DeviceSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    deviceId: z.string(),
    token: z.string(),
    platform: z.enum(values(DevicePlatform)),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Device");
type Device = typeof schema.devices.$inferSelect;
const view = (d: Device) => ({ ...d, createdAt: d.createdAt.toISOString(), updatedAt: d.updatedAt.toISOString() });
const PairParams = z.object({
  a: z.uuid().openapi({ param: { name: "a", in: "path", description: "the user's uuid" } }),
  b: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "b", in: "path", description: "the device id" } }),
});

/** The devices of `userUuid` are theirs to see and remove; admins and services see everyone's. */
async function mayManage(c: Context<AppEnv>, userUuid: string, allowService: boolean) {
  if (allowService && c.var.auth?.type === "service") return;
  const { user } = await requireUser(c);
  if (user.uuid !== userUuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden();
}

devicesRoutes.openapi(
  createRoute({
    method: "post",
    path: "/devices",
    tags,
    summary: "Register the caller's device for push notifications (a token moving to another account moves with it)",
    security: bearer,
    request: jsonBody(
      z.object({
        token: z.string().min(1).max(4096),
        deviceId: z.string().trim().min(1).max(200),
        platform: z.enum(values(DevicePlatform)),
      }),
    ),
    responses: { 201: json(DeviceSchema, "Created"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { user } = await requireUser(c);
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const device = await db.transaction(async (tx) => {
      // One row per token and one per (user, device id): a re-registration replaces both.
      await tx
        .delete(schema.devices)
        .where(and(eq(schema.devices.userUuid, user.uuid), eq(schema.devices.deviceId, body.deviceId)));
      const [row] = await tx
        .insert(schema.devices)
        .values({
          userUuid: user.uuid,
          deviceId: body.deviceId,
          token: body.token,
          platform: body.platform,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: schema.devices.token,
          set: { userUuid: user.uuid, deviceId: body.deviceId, platform: body.platform, updatedAt: now },
        })
        .returning();
      return row;
    });
    if (!device) throw new Error("device upsert returned nothing");
    return c.json(view(device), 201);
  },
);

devicesRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/devices/{token}",
    tags,
    summary: "Forget a device by its push token (its owner or admins)",
    security: bearer,
    request: {
      params: z.object({
        token: z
          .string()
          .min(1)
          .max(4096)
          .openapi({ param: { name: "token", in: "path" } }),
      }),
    },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { db } = c.var.deps;
    const [device] = await db
      .select()
      .from(schema.devices)
      .where(eq(schema.devices.token, c.req.valid("param").token));
    if (!device) {
      await requireUser(c);
      throw notFound("Device not found.");
    }
    await mayManage(c, device.userUuid, false);
    await db.delete(schema.devices).where(eq(schema.devices.id, device.id));
    return c.body(null, 204);
  },
);

const byPair = (a: string, b: string) => and(eq(schema.devices.userUuid, a), eq(schema.devices.deviceId, b));

devicesRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/devices/{a}/{b}",
    tags,
    summary: "Forget device {b} of user {a} (the user or admins)",
    security: bearer,
    request: { params: PairParams },
    responses: { ...noContent, ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { a, b } = c.req.valid("param");
    await mayManage(c, a, false);
    const deleted = await c.var.deps.db.delete(schema.devices).where(byPair(a, b)).returning();
    if (deleted.length === 0) throw notFound("Device not found.");
    return c.body(null, 204);
  },
);

devicesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/devices/single-device/{a}/{b}",
    tags,
    summary: "Device {b} of user {a} (the user, admins or services)",
    security: bearer,
    request: { params: PairParams },
    responses: { 200: json(DeviceSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    const { a, b } = c.req.valid("param");
    await mayManage(c, a, true);
    const [device] = await c.var.deps.db.select().from(schema.devices).where(byPair(a, b));
    if (!device) throw notFound("Device not found.");
    return c.json(view(device), 200);
  },
);

devicesRoutes.openapi(
  createRoute({
    method: "get",
    path: "/devices/all-devices/{id}",
    tags,
    summary: "Every device of user {id} (the user, admins or services)",
    security: bearer,
    request: { params: UuidParam },
    responses: { 200: json(z.array(DeviceSchema)), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const id = c.req.valid("param").id;
    await mayManage(c, id, true);
    const rows = await c.var.deps.db
      .select()
      .from(schema.devices)
      .where(eq(schema.devices.userUuid, id))
      .orderBy(desc(schema.devices.updatedAt));
    return c.json(rows.map(view), 200);
  },
);
