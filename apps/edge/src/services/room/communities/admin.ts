import { type Db, schema } from "@booth/db";
import { and, asc, count, eq, inArray, ne } from "drizzle-orm";
import type { User } from "../../../lib/auth.ts";
import { type CrudOptions, type CrudQuery, crudSelectPage, pickFields } from "../../../lib/crud/index.ts";
import { uniqueOr } from "../../../lib/db-errors.ts";
import { badRequest, found, notFound } from "../../../lib/errors.ts";
import { firstRow } from "../../../lib/rows.ts";
import { freeSlugIn, slugFrom } from "../slugs.ts";
import {
  COMMUNITY_MESSAGES,
  COMMUNITY_NOT_FOUND,
  type CommunityRow,
  communityView,
  memberCount,
  roomCount,
  selectCommunities,
} from "./community.ts";
import { requireActiveUsers } from "./membership.ts";

/** What staff may select, filter and sort communities by. */
export const COMMUNITY_CRUD: CrudOptions = {
  fields: {
    id: schema.communities.id,
    slug: schema.communities.slug,
    name: schema.communities.name,
    description: schema.communities.description,
    imageUrl: schema.communities.imageUrl,
    isPublic: schema.communities.isPublic,
    createdBy: schema.communities.createdBy,
    createdAt: schema.communities.createdAt,
    updatedAt: schema.communities.updatedAt,
    memberCount: { column: memberCount, type: "integer" },
    roomCount: { column: roomCount, type: "integer" },
  },
  primaryKey: "id",
  defaultSort: [{ field: "createdAt", order: "DESC" }],
};

export const adminCommunityView = (row: CommunityRow, fields: string[] | null) => {
  const { joined: _, ...view } = communityView(row);
  return pickFields(view, fields);
};

/** A page of communities in the nestjsx/crud query syntax. */
export const adminCommunityPage = (db: Db, query: CrudQuery) =>
  crudSelectPage(query, {
    total: db.select({ n: count() }).from(schema.communities).$dynamic(),
    rows: selectCommunities(db),
  });

export interface CommunityInput {
  name: string;
  slug?: string | undefined;
  description?: string | undefined;
  imageUrl?: string | null | undefined;
  isPublic?: boolean | undefined;
  createdBy?: string | null | undefined;
}

/** The rows to insert for new communities: slugs free among existing ones and among each other. */
async function newCommunityRows(db: Db, inputs: CommunityInput[], by: User, now: Date) {
  await requireActiveUsers(db, [...new Set(inputs.map((i) => i.createdBy).filter((u): u is string => !!u))]);
  const taken = new Set<string>();
  const rows: (typeof schema.communities.$inferInsert)[] = [];
  for (const input of inputs) {
    let slug: string;
    if (input.slug) {
      if (taken.has(input.slug) || (await freeSlugIn(db, schema.communities.slug, input.slug)) !== input.slug)
        throw badRequest(COMMUNITY_MESSAGES.slugTaken);
      slug = input.slug;
    } else {
      const base = slugFrom(input.name, "community");
      slug = await freeSlugIn(db, schema.communities.slug, base);
      for (let n = 2; taken.has(slug); n++) slug = await freeSlugIn(db, schema.communities.slug, `${base}-${n}`);
    }
    taken.add(slug);
    rows.push({
      slug,
      name: input.name,
      description: input.description ?? "",
      imageUrl: input.imageUrl ?? null,
      isPublic: input.isPublic ?? true,
      createdBy: input.createdBy === undefined ? by.uuid : input.createdBy,
      createdAt: now,
      updatedAt: now,
    });
  }
  return rows;
}

/** Creates communities, all or none (two requests racing for one slug: a 400); answers them in input order. */
export async function createCommunities(db: Db, inputs: CommunityInput[], by: User, now: Date) {
  const rows = await newCommunityRows(db, inputs, by, now);
  const created = await uniqueOr(
    () => db.transaction((tx) => tx.insert(schema.communities).values(rows).returning()),
    () => badRequest(COMMUNITY_MESSAGES.slugTaken),
  );
  const saved = await selectCommunities(db)
    .where(
      inArray(
        schema.communities.id,
        created.map((r) => r.id),
      ),
    )
    .orderBy(asc(schema.communities.createdAt));
  const order = new Map(created.map((r, i) => [r.id, i]));
  return saved.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/** Changes some of a community's fields (the slug checked free). */
export async function updateCommunity(db: Db, id: string, input: Partial<CommunityInput>, now: Date) {
  const row = await firstRow(db, schema.communities, eq(schema.communities.id, id));
  const current = found(row, COMMUNITY_NOT_FOUND);
  if (input.createdBy) await requireActiveUsers(db, [input.createdBy]);
  if (input.slug !== undefined && input.slug !== current.slug) {
    const [clash] = await db
      .select({ id: schema.communities.id })
      .from(schema.communities)
      .where(and(eq(schema.communities.slug, input.slug), ne(schema.communities.id, id)));
    if (clash) throw badRequest(COMMUNITY_MESSAGES.slugTaken);
  }
  await uniqueOr(
    () =>
      db
        .update(schema.communities)
        .set({ ...input, updatedAt: now })
        .where(eq(schema.communities.id, id)),
    () => badRequest(COMMUNITY_MESSAGES.slugTaken),
  );
}

/** Deletes a community with its memberships and room list; the rooms stay. */
export async function deleteCommunity(db: Db, id: string) {
  const deleted = await db
    .delete(schema.communities)
    .where(eq(schema.communities.id, id))
    .returning({ id: schema.communities.id });
  if (!deleted.length) throw notFound(COMMUNITY_NOT_FOUND);
}
