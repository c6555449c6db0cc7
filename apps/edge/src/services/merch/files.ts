import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { errorMessage } from "../../lib/error-codes.ts";
import { badRequest, found, HttpError } from "../../lib/errors.ts";
import { MAX_IMAGE_BYTES, sniffImage } from "../../lib/images.ts";
import { firstRow } from "../../lib/rows.ts";

export const MAX_FILE_BYTES = MAX_IMAGE_BYTES;
export const FILE_NOT_FOUND = "File not found.";

/** Where the merch service serves one of its images. */
export const fileUrl = (id: string | null) => (id ? `/api/merch-service/files/${id}` : null);

/** The uploaded file of a multipart form, or a 400. */
export function imageFile(file: unknown): File {
  if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
  return file;
}

/** Keeps an uploaded image in storage and answers its record. */
export async function storeImage(deps: AppDeps, file: File) {
  if (file.size > MAX_FILE_BYTES) throw new HttpError(413, errorMessage("IMAGE_TOO_LARGE"));
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = sniffImage(bytes);
  if (!contentType) throw new HttpError(415, errorMessage("IMAGE_UNSUPPORTED"));
  const id = crypto.randomUUID();
  await deps.storage.put(`merch/${id}`, bytes, contentType);
  await deps.db
    .insert(schema.merchFiles)
    .values({ id, storageKey: `merch/${id}`, contentType, size: bytes.length, createdAt: deps.clock.now() });
  return { id, url: fileUrl(id) as string, contentType, size: bytes.length };
}

/** A stored image's bytes and type, or a 404. */
export async function readImage(deps: Pick<AppDeps, "db" | "storage">, fileId: string) {
  const row = await firstRow(deps.db, schema.merchFiles, eq(schema.merchFiles.id, fileId));
  const object = row ? await deps.storage.get(row.storageKey) : null;
  return { contentType: found(row, FILE_NOT_FOUND).contentType, data: found(object, FILE_NOT_FOUND).data };
}

/** A 400 when a consumable or avatar names a file that is not stored. */
export async function checkFile(db: AppDeps["db"], fileId: string | null | undefined) {
  if (!fileId) return;
  const [file] = await db
    .select({ id: schema.merchFiles.id })
    .from(schema.merchFiles)
    .where(eq(schema.merchFiles.id, fileId));
  if (!file) throw badRequest(["fileId: no such file"]);
}
