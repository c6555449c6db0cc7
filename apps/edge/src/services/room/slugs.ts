import type { Db } from "@booth/db";
import { z } from "@hono/zod-openapi";
import { eq, or, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { escapeLike } from "../../lib/crud/index.ts";
import { dashedWords, SLUG_PATTERN } from "./rooms.ts";

// Slugs and text of communities and events ------------------------------------------------------------------------

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const looksLikeUuid = (key: string) => UUID_SHAPE.test(key);
/** What a slug in a path may look like; anything else names nothing (and never reaches the database). */
export const looksLikeSlug = (key: string) => /^[a-z0-9-]{1,100}$/i.test(key);

/** Trimmed text the database can store (Postgres text refuses NUL characters). */
export const plainText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((s) => !s.includes("\u0000"), "must not contain NUL characters");

/** A slug given by a client: lower-case words joined by dashes, never shaped like a uuid (paths take either). */
export const SlugInput = z
  .string()
  .trim()
  .toLowerCase()
  .min(2)
  .max(60)
  .regex(SLUG_PATTERN, "slug: lower-case words joined by dashes")
  .refine((s) => !looksLikeUuid(s), "slug: must not look like a uuid");

/** The image of a community or an event: an http(s) URL, or null for none. */
export const ImageUrlInput = z
  .url({ protocol: /^https?$/, error: "imageUrl: an http(s) URL" })
  .max(2000)
  .nullable();

/** A slug from a name: lower-case words joined by dashes, `fallback` when the name has no letters or digits. */
export function slugFrom(name: string, fallback: string) {
  const slug = dashedWords(name, 50);
  return slug.length >= 2 && !looksLikeUuid(slug) ? slug : fallback;
}

/** `wanted`, or `wanted-2`, `wanted-3`... whichever no row holds in `column` (a unique slug column). */
export async function freeSlugIn(db: Db, column: PgColumn, wanted: string) {
  const rows = await db
    .select({ slug: column })
    .from(column.table)
    .where(or(eq(column, wanted), sql`${column} like ${`${escapeLike(wanted)}-%`}`));
  const used = new Set(rows.map((r) => r.slug as string));
  if (!used.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!used.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}
