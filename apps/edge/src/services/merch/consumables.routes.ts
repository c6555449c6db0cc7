import { schema } from "@booth/db";
import { ConsumableDisplayType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import { ADMINS, rateLimit, requireUser } from "../../lib/auth.ts";
import { badRequest, forbidden, HttpError, notFound } from "../../lib/errors.ts";
import { sniffImage } from "../../lib/images.ts";
import { bearer, createRouter, errors, json, jsonBody, noContent, UuidParam, uuidList } from "../../lib/openapi.ts";
import { ROOM_NOT_FOUND } from "../room/access.ts";
import { ACCOUNT_NOT_FOUND, accountView, hold, inLedger, lockAccount, resolveHold } from "./ledger.ts";
import { TokenAccountSchema } from "./tokens.routes.ts";

export const PRICE_CHANGED = "The price of this item has changed; please review it and try again.";
export const BALANCE_CHANGED = "Your token balance has changed; please review it and try again.";
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The web lists consumables and bundles 32 at a time. */
export const MERCH_PAGE = 32;

export const consumableRoutes = createRouter();
const tags = ["Consumables"];

const ConsumableSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    tokenCost: z.number().int(),
    displayType: z.enum(values(ConsumableDisplayType)),
    fileId: z.uuid().nullable(),
    fileUrl: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Consumable");
type Consumable = typeof schema.consumables.$inferSelect;
export const fileUrl = (id: string | null) => (id ? `/api/merch-service/files/${id}` : null);
const view = (c: Consumable) => ({
  ...c,
  fileUrl: fileUrl(c.fileId),
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

const ConsumableBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  tokenCost: z.number().int().min(1).max(1_000_000),
  displayType: z.enum(values(ConsumableDisplayType)).default("small"),
  fileId: z.uuid().nullable().optional(),
});

async function checkFile(db: import("@booth/db").Db, fileId: string | null | undefined) {
  if (!fileId) return;
  const [file] = await db
    .select({ id: schema.merchFiles.id })
    .from(schema.merchFiles)
    .where(eq(schema.merchFiles.id, fileId));
  if (!file) throw badRequest(["fileId: no such file"]);
}

consumableRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/consumables",
    tags,
    summary: "Create a consumable (admins)",
    security: bearer,
    request: jsonBody(ConsumableBody),
    responses: { 201: json(ConsumableSchema, "Created"), ...errors(400, 401, 403) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await checkFile(db, body.fileId);
    const [row] = await db
      .insert(schema.consumables)
      .values({ ...body, createdAt: clock.now(), updatedAt: clock.now() })
      .returning();
    if (!row) throw new Error("consumable insert returned nothing");
    return c.json(view(row), 201);
  },
);

const ListQuery = z.object({
  id: z.string().max(20_000).optional().openapi({ description: "comma-separated ids" }),
  createdBefore: z.iso.datetime({ offset: true }).optional(),
  orderBy: z.enum(["createdAt", "-createdAt", "tokenCost", "-tokenCost", "name"]).default("-createdAt"),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(MERCH_PAGE),
});
const listWhere = (q: Pick<z.infer<typeof ListQuery>, "id" | "createdBefore">) => {
  const ids = uuidList(q.id, "id");
  return and(
    ids.length ? inArray(schema.consumables.id, ids) : undefined,
    q.createdBefore ? lt(schema.consumables.createdAt, new Date(q.createdBefore)) : undefined,
  );
};
const ORDER = {
  createdAt: asc(schema.consumables.createdAt),
  "-createdAt": desc(schema.consumables.createdAt),
  tokenCost: asc(schema.consumables.tokenCost),
  "-tokenCost": desc(schema.consumables.tokenCost),
  name: asc(schema.consumables.name),
} as const;

consumableRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/consumables",
    tags,
    summary: "Consumables (anyone)",
    request: { query: ListQuery },
    responses: { 200: json(z.array(ConsumableSchema)), ...errors(400) },
  }),
  async (c) => {
    const q = c.req.valid("query");
    const rows = await c.var.deps.db
      .select()
      .from(schema.consumables)
      .where(listWhere(q))
      .orderBy(ORDER[q.orderBy], asc(schema.consumables.id))
      .limit(q.limit)
      .offset(q.offset);
    return c.json(rows.map(view), 200);
  },
);

consumableRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/consumables/count",
    tags,
    summary: "How many consumables match",
    request: { query: ListQuery.pick({ id: true, createdBefore: true }) },
    responses: { 200: json(z.object({ count: z.number().int() }).openapi("Count")), ...errors(400) },
  }),
  async (c) => c.json({ count: await c.var.deps.db.$count(schema.consumables, listWhere(c.req.valid("query"))) }, 200),
);

consumableRoutes.openapi(
  createRoute({
    method: "get",
    path: "/api/v1/consumables/{id}",
    tags,
    summary: "One consumable",
    request: { params: UuidParam },
    responses: { 200: json(ConsumableSchema), ...errors(400, 404) },
  }),
  async (c) => {
    const [row] = await c.var.deps.db
      .select()
      .from(schema.consumables)
      .where(eq(schema.consumables.id, c.req.valid("param").id));
    if (!row) throw notFound("Consumable not found.");
    return c.json(view(row), 200);
  },
);

consumableRoutes.openapi(
  createRoute({
    method: "patch",
    path: "/api/v1/consumables/{id}",
    tags,
    summary: "Change a consumable (admins)",
    security: bearer,
    request: { params: UuidParam, ...jsonBody(ConsumableBody.partial()) },
    responses: { 200: json(ConsumableSchema), ...errors(400, 401, 403, 404) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const body = c.req.valid("json");
    const { db, clock } = c.var.deps;
    await checkFile(db, body.fileId);
    const [row] = await db
      .update(schema.consumables)
      .set({ ...body, updatedAt: clock.now() })
      .where(eq(schema.consumables.id, c.req.valid("param").id))
      .returning();
    if (!row) throw notFound("Consumable not found.");
    return c.json(view(row), 200);
  },
);

consumableRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/api/v1/consumables/{id}",
    tags,
    summary: "Delete a consumable that nobody has bought (admins)",
    security: bearer,
    request: { params: UuidParam },
    responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const id = c.req.valid("param").id;
    const { db } = c.var.deps;
    if (await db.$count(schema.consumablePurchases, eq(schema.consumablePurchases.consumableId, id)))
      throw new HttpError(409, "This consumable has been bought; it cannot be deleted.");
    const deleted = await db.delete(schema.consumables).where(eq(schema.consumables.id, id)).returning();
    if (deleted.length === 0) throw notFound("Consumable not found.");
    return c.body(null, 204);
  },
);

// ---- purchases

const PurchaseSchema = z
  .object({
    id: z.uuid(),
    consumableId: z.uuid(),
    roomUuid: z.uuid(),
    tokenCost: z.number().int(),
    account: TokenAccountSchema,
    createdAt: z.string(),
  })
  .openapi("ConsumablePurchase");

consumableRoutes.openapi(
  createRoute({
    method: "post",
    path: "/api/v1/consumable-purchases",
    tags,
    summary: "Buy a consumable for a room with tokens; refused when the price or the balance the client saw is stale",
    security: bearer,
    request: {
      ...jsonBody(
        z.object({
          roomUuid: z.uuid(),
          consumableId: z.uuid(),
          accountId: z.uuid(),
          tokenCost: z.number().int().min(1),
          lastTokenBalance: z.number().int().min(0).optional(),
          balanceUnmodifiedSince: z.iso.datetime({ offset: true }).optional(),
          idempotencyKey: z.string().min(1).max(200).optional(),
        }),
      ),
      headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
    },
    responses: { 201: json(PurchaseSchema, "Created"), ...errors(400, 401, 402, 403, 404, 409, 429) },
  }),
  async (c) => {
    const { user } = await requireUser(c, { types: ["user", "bot"] });
    const body = c.req.valid("json");
    const key = body.idempotencyKey ?? c.req.valid("header")["idempotency-key"];
    await rateLimit(c, `purchase:${user.uuid}`, 300, 60);
    const { db, clock } = c.var.deps;
    const now = clock.now();
    const [consumable] = await db.select().from(schema.consumables).where(eq(schema.consumables.id, body.consumableId));
    if (!consumable) throw notFound("Consumable not found.");
    const [room] = await db
      .select({ uuid: schema.rooms.uuid })
      .from(schema.rooms)
      .where(eq(schema.rooms.uuid, body.roomUuid));
    if (!room) throw notFound(ROOM_NOT_FOUND);
    const purchase = await inLedger(db, async (tx) => {
      const account = await lockAccount(tx, body.accountId);
      if (account.userUuid !== user.uuid) throw forbidden();
      if (key) {
        const [earlier] = await tx
          .select({ purchase: schema.consumablePurchases })
          .from(schema.tokenTransactions)
          .innerJoin(schema.consumablePurchases, eq(schema.consumablePurchases.holdId, schema.tokenTransactions.id))
          .where(
            and(eq(schema.tokenTransactions.accountId, account.id), eq(schema.tokenTransactions.idempotencyKey, key)),
          );
        if (earlier) return { row: earlier.purchase, account, replayed: true };
      }
      if (consumable.tokenCost !== body.tokenCost) throw new HttpError(409, PRICE_CHANGED);
      if (body.lastTokenBalance !== undefined && account.balance !== body.lastTokenBalance)
        throw new HttpError(409, BALANCE_CHANGED);
      if (body.balanceUnmodifiedSince && account.updatedAt > new Date(body.balanceUnmodifiedSince))
        throw new HttpError(409, BALANCE_CHANGED);
      const held = await hold(
        tx,
        {
          accountId: account.id,
          amount: consumable.tokenCost,
          reason: `consumable ${consumable.name}`,
          referenceType: "consumable",
          referenceId: consumable.id,
          idempotencyKey: key,
        },
        now,
      );
      const committed = await resolveHold(tx, held.transaction.id, "commit", now);
      const [row] = await tx
        .insert(schema.consumablePurchases)
        .values({
          accountId: account.id,
          userUuid: user.uuid,
          consumableId: consumable.id,
          roomUuid: body.roomUuid,
          tokenCost: consumable.tokenCost,
          holdId: held.transaction.id,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error("purchase insert returned nothing");
      return { row, account: committed.account, replayed: false };
    });
    // Everyone in the room sees it in the chat (once: a replayed request announces nothing).
    if (!purchase.replayed) {
      const [profile] = await db
        .select({ nickname: schema.profiles.nickname })
        .from(schema.profiles)
        .where(eq(schema.profiles.userUuid, user.uuid));
      await c.var.deps.liveRooms.notify(body.roomUuid, {
        type: "showConsumable",
        buyer: { uuid: user.uuid, nickname: profile?.nickname ?? "Someone" },
        consumable: {
          id: consumable.id,
          name: consumable.name,
          displayType: consumable.displayType,
          imageUrl: fileUrl(consumable.fileId),
          tokenCost: purchase.row.tokenCost,
          purchaseId: purchase.row.id,
        },
      });
    }
    const [fresh] = await db
      .select()
      .from(schema.tokenAccounts)
      .where(eq(schema.tokenAccounts.id, purchase.account.id));
    if (!fresh) throw notFound(ACCOUNT_NOT_FOUND);
    return c.json(
      {
        id: purchase.row.id,
        consumableId: purchase.row.consumableId,
        roomUuid: purchase.row.roomUuid,
        tokenCost: purchase.row.tokenCost,
        account: accountView(fresh),
        createdAt: purchase.row.createdAt.toISOString(),
      },
      201,
    );
  },
);

// ---- files

consumableRoutes.openapi(
  createRoute({
    method: "post",
    path: "/files",
    tags: ["Files"],
    summary: "Upload an image for a consumable or a bundle (admins; png, jpeg, webp or gif, at most 5 MB)",
    security: bearer,
    request: {
      body: {
        required: true,
        content: {
          "multipart/form-data": { schema: z.object({ file: z.any().openapi({ type: "string", format: "binary" }) }) },
        },
      },
    },
    responses: {
      201: json(
        z
          .object({ id: z.uuid(), url: z.string(), contentType: z.string(), size: z.number().int() })
          .openapi("MerchFile"),
        "Created",
      ),
      ...errors(400, 401, 403, 413, 415),
    },
  }),
  async (c) => {
    await requireUser(c, { roles: ADMINS });
    const file = (c.req.valid("form") as { file?: unknown }).file;
    if (!(file instanceof File)) throw badRequest(["file: an image file is required"]);
    return c.json(await storeImage(c.var.deps, file), 201);
  },
);

/** Keeps an uploaded image in storage and answers its record. */
export async function storeImage(deps: import("../../deps.ts").AppDeps, file: File) {
  if (file.size > MAX_FILE_BYTES) throw new HttpError(413, "The image is larger than 5 MB.");
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = sniffImage(bytes);
  if (!contentType) throw new HttpError(415, "The file is not a png, jpeg, webp or gif image.");
  const id = crypto.randomUUID();
  await deps.storage.put(`merch/${id}`, bytes, contentType);
  await deps.db
    .insert(schema.merchFiles)
    .values({ id, storageKey: `merch/${id}`, contentType, size: bytes.length, createdAt: deps.clock.now() });
  return { id, url: fileUrl(id) as string, contentType, size: bytes.length };
}

consumableRoutes.openapi(
  createRoute({
    method: "get",
    path: "/files/{fileId}",
    tags: ["Files"],
    summary: "A stored image",
    request: { params: z.object({ fileId: z.uuid().openapi({ param: { name: "fileId", in: "path" } }) }) },
    responses: { 200: { description: "The image" }, ...errors(400, 404) },
  }),
  async (c) => {
    const [row] = await c.var.deps.db
      .select()
      .from(schema.merchFiles)
      .where(eq(schema.merchFiles.id, c.req.valid("param").fileId));
    const object = row ? await c.var.deps.storage.get(row.storageKey) : null;
    if (!row || !object) throw notFound("File not found.");
    return c.body(object.data as Uint8Array<ArrayBuffer>, 200, {
      "content-type": row.contentType,
      "cache-control": "public, max-age=31536000, immutable",
    });
  },
);
