import { type Db, schema, type Tx } from "@booth/db";
import type { ImageType } from "@booth/db/schema";
import { and, eq } from "drizzle-orm";
import { errorMessage } from "../../lib/error-codes.ts";
import { imageUrl } from "../../lib/images.ts";
import { firstRow, returnedRow } from "../../lib/rows.ts";

export const UNAUTHORIZED_TO_DELETE = errorMessage("UNAUTHORIZED_TO_DELETE");
export const IMAGE_NOT_FOUND = "Image not found.";

type Image = typeof schema.images.$inferSelect;

const profileField = (type: ImageType) => (type === "profilePicture" ? "profilePicture" : "coverPicture");

export const imageView = (row: Image) => ({
  id: row.id,
  userUuid: row.userUuid,
  type: row.type,
  contentType: row.contentType,
  size: row.size,
  url: imageUrl(row.id),
  createdAt: row.createdAt.toISOString(),
});

/** Records a stored image and makes it the user's profile or cover picture, in one transaction. */
export async function saveProfileImage(
  db: Db,
  input: { id: string; userUuid: string; type: ImageType; storageKey: string; contentType: string; size: number },
  now: () => Date,
) {
  const field = profileField(input.type);
  const row = await db.transaction(async (tx) => {
    const inserted = await returnedRow(
      "image insert",
      tx
        .insert(schema.images)
        .values({ ...input, createdAt: now() })
        .returning(),
    );
    await tx
      .update(schema.profiles)
      .set({ [field]: imageUrl(input.id), updatedAt: now() })
      .where(eq(schema.profiles.userUuid, input.userUuid));
    return inserted;
  });
  return row;
}

/** A room's poster image, stored by the room service: its row here (the room shows it at its imageUrl). */
export async function addRoomPoster(db: Db, values: Omit<typeof schema.images.$inferInsert, "type">) {
  await db.insert(schema.images).values({ ...values, type: "roomPoster" });
}

/** Forgets a room poster's image row; answers it (its storage key), or undefined when `id` is no room poster. */
export async function removeRoomPoster(db: Db, id: string) {
  const [image] = await db
    .delete(schema.images)
    .where(and(eq(schema.images.id, id), eq(schema.images.type, "roomPoster")))
    .returning();
  return image;
}

export async function findImage(db: Db, id: string) {
  return firstRow(db, schema.images, eq(schema.images.id, id));
}

/** The roles of an image's owner (null if the account is gone). */
export async function ownerRoles(db: Db, userUuid: string) {
  const [owner] = await db
    .select({ roles: schema.users.roles })
    .from(schema.users)
    .where(eq(schema.users.uuid, userUuid));
  return owner?.roles ?? null;
}

/**
 * Forgets, in one transaction, an image given at the image's address: the rooms showing it as their poster stop
 * showing it (the room service's, handed in: `UserServiceNeeds.forgetRoomPoster`).
 */
export type ForgetRoomPoster = (tx: Tx, url: string, now: Date) => Promise<void>;

/** Forgets an image: its row, the profile field that shows it, and any room poster that is it. */
export async function deleteImage(db: Db, row: Image, now: () => Date, forgetRoomPoster: ForgetRoomPoster) {
  const field = profileField(row.type);
  await db.transaction(async (tx) => {
    await tx.delete(schema.images).where(eq(schema.images.id, row.id));
    const profile = await firstRow(tx, schema.profiles, eq(schema.profiles.userUuid, row.userUuid));
    if (profile?.[field] === imageUrl(row.id))
      await tx
        .update(schema.profiles)
        .set({ [field]: null, updatedAt: now() })
        .where(eq(schema.profiles.userUuid, row.userUuid));
    // A room poster is an image too: its room stops showing it.
    await forgetRoomPoster(tx, imageUrl(row.id), now());
  });
}
