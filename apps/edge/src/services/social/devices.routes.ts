import { DevicePlatform, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { oneItem, removal } from "../../lib/contract-families.ts";
import { contracts, created, jsonBody, ok, Timestamps, UuidParam } from "../../lib/openapi.ts";

const { authed } = contracts(["Devices"]);

const DeviceSchema = z
  .object({
    id: z.uuid(),
    userUuid: z.uuid(),
    deviceId: z.string(),
    token: z.string(),
    platform: z.enum(values(DevicePlatform)),
    ...Timestamps,
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

export const register = authed("post", "/devices", {
  summary: "Register the caller's device for push notifications (a token moving to another account moves with it)",
  request: jsonBody(
    z.object({
      token: z.string().min(1).max(4096),
      deviceId: z.string().trim().min(1).max(200),
      platform: z.enum(values(DevicePlatform)),
    }),
  ),
  responses: created(DeviceSchema, 400, 401, 403),
});

const TokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(4096)
    .openapi({ param: { name: "token", in: "path" } }),
});

export const forgetByToken = removal(
  authed,
  "/devices/{token}",
  "Forget a device by its push token (its owner or admins)",
  TokenParam,
);

export const forgetUserDevice = removal(
  authed,
  "/devices/{a}/{b}",
  "Forget device {b} of user {a} (the user or admins)",
  PairParams,
);

export const userDevice = oneItem(
  authed,
  "/devices/single-device/{a}/{b}",
  "Device {b} of user {a} (the user, admins or services)",
  DeviceSchema,
  PairParams,
);

export const userDevices = authed("get", "/devices/all-devices/{id}", {
  summary: "Every device of user {id} (the user, admins or services)",
  request: { params: UuidParam },
  responses: ok(z.array(DeviceSchema), 400, 401, 403),
});
