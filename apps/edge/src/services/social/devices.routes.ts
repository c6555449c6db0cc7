import { DevicePlatform, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidParam } from "../../lib/openapi.ts";

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
const PairParams = z.object({
  a: z.uuid().openapi({ param: { name: "a", in: "path", description: "the user's uuid" } }),
  b: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: "b", in: "path", description: "the device id" } }),
});

export const register = createRoute({
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
});

export const forgetByToken = createRoute({
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
});

export const forgetUserDevice = createRoute({
  method: "delete",
  path: "/devices/{a}/{b}",
  tags,
  summary: "Forget device {b} of user {a} (the user or admins)",
  security: bearer,
  request: { params: PairParams },
  responses: { ...noContent, ...errors(400, 401, 403, 404) },
});

export const userDevice = createRoute({
  method: "get",
  path: "/devices/single-device/{a}/{b}",
  tags,
  summary: "Device {b} of user {a} (the user, admins or services)",
  security: bearer,
  request: { params: PairParams },
  responses: { 200: json(DeviceSchema), ...errors(400, 401, 403, 404) },
});

export const userDevices = createRoute({
  method: "get",
  path: "/devices/all-devices/{id}",
  tags,
  summary: "Every device of user {id} (the user, admins or services)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(z.array(DeviceSchema)), ...errors(400, 401, 403) },
});
