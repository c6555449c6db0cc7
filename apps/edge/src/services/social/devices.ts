import { type Db, schema, type Tx } from "@booth/db";
import type { DevicePlatform } from "@booth/db/schema";
import { and, desc, eq } from "drizzle-orm";
import { jsonRow } from "../../lib/json-rows.ts";
import { deleteFound, firstRow, returnedRow } from "../../lib/rows.ts";

export const DEVICE_NOT_FOUND = "Device not found.";

type Device = typeof schema.devices.$inferSelect;
export const deviceView = (d: Device) => jsonRow(d);

/** Registers a user's device; a token registered by another account moves to this one. */
export async function registerDevice(
  db: Db,
  userUuid: string,
  input: { token: string; deviceId: string; platform: DevicePlatform },
  now: Date,
) {
  const device = await db.transaction(async (tx) => {
    // One row per token and one per (user, device id): a re-registration replaces both.
    await tx
      .delete(schema.devices)
      .where(and(eq(schema.devices.userUuid, userUuid), eq(schema.devices.deviceId, input.deviceId)));
    return returnedRow(
      "device upsert",
      tx
        .insert(schema.devices)
        .values({
          userUuid,
          deviceId: input.deviceId,
          token: input.token,
          platform: input.platform,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: schema.devices.token,
          set: { userUuid, deviceId: input.deviceId, platform: input.platform, updatedAt: now },
        })
        .returning(),
    );
  });
  return device;
}

export async function deviceByToken(db: Db | Tx, token: string) {
  return firstRow(db, schema.devices, eq(schema.devices.token, token));
}

export async function deleteDevice(db: Db | Tx, id: string) {
  await db.delete(schema.devices).where(eq(schema.devices.id, id));
}

const byPair = (userUuid: string, deviceId: string) =>
  and(eq(schema.devices.userUuid, userUuid), eq(schema.devices.deviceId, deviceId));

/** Forgets device `deviceId` of a user; a 404 when there is none. */
export async function deleteUserDevice(db: Db | Tx, userUuid: string, deviceId: string) {
  await deleteFound(db, schema.devices, byPair(userUuid, deviceId), DEVICE_NOT_FOUND);
}

export async function userDevice(db: Db | Tx, userUuid: string, deviceId: string) {
  return firstRow(db, schema.devices, byPair(userUuid, deviceId));
}

/** Every device of a user, the most recently registered first. */
export const devicesOf = (db: Db | Tx, userUuid: string) =>
  db.select().from(schema.devices).where(eq(schema.devices.userUuid, userUuid)).orderBy(desc(schema.devices.updatedAt));
