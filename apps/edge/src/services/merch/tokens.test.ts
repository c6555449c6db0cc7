import { schema } from "@booth/db";
import type { ServicePaths } from "@booth/sdk";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { firstRow } from "../../lib/rows.ts";
import { multipart, ok, openTestApp, type TestUser } from "../../testing.ts";
import { credit, hold } from "./ledger.ts";

/** The room purchases are made for. */
let room: string;
const t = openTestApp();
beforeAll(async () => {
  const owner = await t.createUser();
  room = ok(await t.api(owner.token).room.POST("/rooms/infrastructure", { body: { name: "Shop floor" } })).uuid;
});

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

/** A user with a token account holding `tokens`. */
async function funded(tokens: number) {
  const u = await t.createUser();
  const account = ok(await t.api(u.token).merch.POST("/api/v1/token-accounts"));
  if (tokens)
    await t.db.transaction((tx) =>
      credit(tx, { accountId: account.id, amount: tokens, reason: "test grant" }, t.clock.now()),
    );
  return { ...u, accountId: account.id };
}
async function balance(accountId: string) {
  const row = await firstRow(t.db, schema.tokenAccounts, eq(schema.tokenAccounts.id, accountId));
  return { balance: row?.balance, held: row?.held };
}
let admin: TestUser;
async function consumable(tokenCost: number) {
  admin ??= await t.createUser({ roles: ["user", "admin"] });
  return ok(
    await t
      .api(admin.token)
      .merch.POST("/api/v1/consumables", { body: { name: `Confetti ${tokenCost}`, tokenCost, displayType: "cover" } }),
  );
}
/** A purchase by the holder of `token`. */
function purchase(
  token: string | null,
  body: ServicePaths["merch"]["/api/v1/consumable-purchases"]["post"]["requestBody"]["content"]["application/json"],
  idempotencyKey?: string,
) {
  return t.api(token).merch.POST("/api/v1/consumable-purchases", {
    body,
    params: idempotencyKey ? { header: { "idempotency-key": idempotencyKey } } : {},
  });
}

describe("token accounts", () => {
  it("opens one account per user and shows it to its owner", async () => {
    const { token, user } = await t.createUser();
    const api = t.api(token);
    const missing = await api.merch.GET("/api/v1/token-accounts/self");
    expect(missing.response.status).toBe(404);
    expect(missing.error?.message).toBe("We were unable to find your token account. Please try again.");
    const made = ok(await api.merch.POST("/api/v1/token-accounts"));
    expect(made).toMatchObject({ userUuid: user.uuid, balance: 0, held: 0, status: "active" });
    expect((await api.merch.POST("/api/v1/token-accounts")).response.status).toBe(409);
    expect((await api.merch.GET("/api/v1/token-accounts/self")).data?.id).toBe(made.id);
    const other = await t.createUser();
    const byId = { params: { path: { accountId: made.id } } };
    expect((await t.api(other.token).merch.GET("/api/v1/token-accounts/{accountId}", byId)).response.status).toBe(403);
    expect(
      (await t.api(await t.serviceToken()).merch.GET("/api/v1/token-accounts/{accountId}", byId)).response.status,
    ).toBe(200);
    expect((await t.api().merch.GET("/api/v1/token-accounts/{accountId}", byId)).response.status).toBe(401);
  });
});

describe("credits", () => {
  it("admins and services credit tokens, once per idempotency key; users cannot", async () => {
    const u = await funded(0);
    const body = { amount: 25, reason: "welcome gift" };
    const path = { accountId: u.accountId };
    const url = "/api/v1/token-accounts/{accountId}/credit";
    expect((await t.api(u.token).merch.POST(url, { params: { path }, body })).response.status).toBe(403);
    const service = t.api(await t.serviceToken());
    const once = { path, header: { "idempotency-key": "gift-1" } };
    const first = ok(await service.merch.POST(url, { params: once, body }));
    expect(first.account.balance).toBe(25);
    const again = ok(await service.merch.POST(url, { params: once, body }));
    expect(again.transaction.id).toBe(first.transaction.id);
    expect(await balance(u.accountId)).toEqual({ balance: 25, held: 0 });
    expect(
      (await service.merch.POST(url, { params: { path: { accountId: crypto.randomUUID() } }, body })).response.status,
    ).toBe(404);
    expect(
      (await service.merch.POST(url, { params: { path }, body: { amount: -5, reason: "x" } })).response.status,
    ).toBe(400);
  });
});

describe("purchases", () => {
  it("100 concurrent purchases against a balance that covers 10 give exactly 10 and a balance of 0", async () => {
    const buyer = await funded(50);
    const item = await consumable(5);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        purchase(buyer.token, { roomUuid: room, consumableId: item.id, accountId: buyer.accountId, tokenCost: 5 }),
      ),
    );
    expect(results.filter((r) => r.response.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.response.status !== 201).every((r) => r.response.status === 402)).toBe(true);
    expect(await balance(buyer.accountId)).toEqual({ balance: 0, held: 0 });
    const ledger = await t.db
      .select()
      .from(schema.tokenTransactions)
      .where(eq(schema.tokenTransactions.accountId, buyer.accountId));
    expect(ledger.filter((r) => r.type === "commit")).toHaveLength(10);
    expect(
      await t.db.$count(schema.consumablePurchases, eq(schema.consumablePurchases.accountId, buyer.accountId)),
    ).toBe(10);
  }, 60_000);

  it("refuses a stale price or balance and changes nothing", async () => {
    const buyer = await funded(20);
    const item = await consumable(7);
    const base = { roomUuid: room, consumableId: item.id, accountId: buyer.accountId };
    const price = await purchase(buyer.token, { ...base, tokenCost: 6 });
    expect(price.response.status).toBe(409);
    expect(price.error?.message).toBe("The price of this item has changed; please review it and try again.");
    const stale = await purchase(buyer.token, { ...base, tokenCost: 7, lastTokenBalance: 25 });
    expect(stale.response.status).toBe(409);
    expect(stale.error?.message).toBe("Your token balance has changed; please review it and try again.");
    const old = await purchase(buyer.token, {
      ...base,
      tokenCost: 7,
      balanceUnmodifiedSince: new Date(t.clock.now().getTime() - 60_000).toISOString(),
    });
    expect(old.response.status).toBe(409);
    expect(await balance(buyer.accountId)).toEqual({ balance: 20, held: 0 });
    const fresh = await purchase(buyer.token, { ...base, tokenCost: 7, lastTokenBalance: 20 });
    expect(fresh.response.status).toBe(201);
    expect(fresh.data?.account.balance).toBe(13);
  });

  it("a retried purchase with the same idempotency key moves tokens once", async () => {
    const buyer = await funded(30);
    const item = await consumable(10);
    const body = { roomUuid: room, consumableId: item.id, accountId: buyer.accountId, tokenCost: 10 };
    const first = ok(await purchase(buyer.token, body, "buy-1"));
    const retries = await Promise.all([1, 2, 3].map(() => purchase(buyer.token, body, "buy-1")));
    expect(retries.every((r) => r.response.status === 201 && r.data?.id === first.id)).toBe(true);
    expect(await balance(buyer.accountId)).toEqual({ balance: 20, held: 0 });
    // The room saw it once.
    expect(
      t.live.events.filter((e) => e.event.type === "showConsumable" && e.event.consumable.purchaseId === first.id),
    ).toHaveLength(1);
  });

  it("shows the purchase in the room it was bought for, with the buyer and the item", async () => {
    const buyer = await funded(5);
    const item = await consumable(3);
    const made = await purchase(buyer.token, {
      roomUuid: room,
      consumableId: item.id,
      accountId: buyer.accountId,
      tokenCost: 3,
    });
    expect(made.response.status).toBe(201);
    expect(t.live.events.at(-1)).toEqual({
      roomUuid: room,
      event: {
        type: "showConsumable",
        buyer: { uuid: buyer.user.uuid, nickname: expect.any(String) },
        consumable: {
          id: item.id,
          name: "Confetti 3",
          displayType: "cover",
          imageUrl: null,
          tokenCost: 3,
          purchaseId: made.data?.id,
        },
      },
    });
    // A room that does not exist is refused before any token moves.
    const nowhere = await purchase(buyer.token, {
      roomUuid: crypto.randomUUID(),
      consumableId: item.id,
      accountId: buyer.accountId,
      tokenCost: 3,
    });
    expect(nowhere.response.status).toBe(404);
    expect(nowhere.error?.message).toBe("Room not found.");
    expect(await balance(buyer.accountId)).toEqual({ balance: 2, held: 0 });
  });

  it("only the account's owner buys with it", async () => {
    const owner = await funded(10);
    const thief = await t.createUser();
    const item = await consumable(1);
    const body = { roomUuid: room, consumableId: item.id, accountId: owner.accountId, tokenCost: 1 };
    expect((await purchase(thief.token, body)).response.status).toBe(403);
    expect((await purchase(null, body)).response.status).toBe(401);
    expect((await purchase(owner.token, { ...body, consumableId: crypto.randomUUID() })).response.status).toBe(404);
    expect(await balance(owner.accountId)).toEqual({ balance: 10, held: 0 });
  });
});

describe("holds", () => {
  it("a concurrent commit and void of one hold: one wins, the other is refused", async () => {
    const u = await funded(10);
    const service = t.api(await t.serviceToken());
    for (let round = 0; round < 5; round++) {
      const { transaction } = await t.db.transaction((tx) =>
        hold(tx, { accountId: u.accountId, amount: 2 }, t.clock.now()),
      );
      const [commit, voided] = await Promise.all([
        service.merch.POST("/api/v1/token-transactions/commit", { body: { holdId: transaction.id } }),
        service.merch.POST("/api/v1/token-transactions/void", { body: { holdId: transaction.id } }),
      ]);
      expect([commit.response.status, voided.response.status].sort()).toEqual([200, 409]);
      const loser = commit.response.status === 409 ? commit : voided;
      expect(loser.error?.message).toBe("This hold has already been committed or voided.");
    }
    const after = await balance(u.accountId);
    expect(after.held).toBe(0);
    expect((after.balance ?? 0) % 2).toBe(0);
    const resolutions = await t.db
      .select()
      .from(schema.tokenTransactions)
      .where(eq(schema.tokenTransactions.accountId, u.accountId));
    expect(resolutions.filter((r) => r.type === "commit" || r.type === "voided")).toHaveLength(5);
  });

  it("voiding gives the tokens back; only services resolve holds", async () => {
    const u = await funded(10);
    const { transaction } = await t.db.transaction((tx) =>
      hold(tx, { accountId: u.accountId, amount: 4 }, t.clock.now()),
    );
    expect(await balance(u.accountId)).toEqual({ balance: 6, held: 4 });
    const body = { holdId: transaction.id };
    expect((await t.api(u.token).merch.POST("/api/v1/token-transactions/void", { body })).response.status).toBe(403);
    const service = t.api(await t.serviceToken());
    const res = await service.merch.POST("/api/v1/token-transactions/void", { body });
    expect(res.data?.account).toMatchObject({ balance: 10, held: 0 });
    expect(
      (await service.merch.POST("/api/v1/token-transactions/commit", { body: { holdId: crypto.randomUUID() } }))
        .response.status,
    ).toBe(404);
  });
});

describe("consumables", () => {
  it("admins manage them; anyone lists, counts and reads them", async () => {
    admin ??= await t.createUser({ roles: ["user", "admin"] });
    const staff = t.api(admin.token);
    const user = t.api((await t.createUser()).token);
    const anyone = t.api();
    const form = new FormData();
    form.set("file", new File([PNG], "c.png", { type: "image/png" }));
    const upload = await staff.merch.POST("/files", multipart(form));
    expect(upload.response.status).toBe(201);
    const file = ok(upload);
    expect((await t.app.request(file.url)).headers.get("content-type")).toBe("image/png");
    const made = ok(
      await staff.merch.POST("/api/v1/consumables", { body: { name: "Disco ball", tokenCost: 3, fileId: file.id } }),
    );
    expect(made).toMatchObject({ name: "Disco ball", displayType: "small", fileUrl: file.url });
    expect((await user.merch.POST("/api/v1/consumables", { body: { name: "x", tokenCost: 1 } })).response.status).toBe(
      403,
    );
    expect((await staff.merch.POST("/api/v1/consumables", { body: { name: "x", tokenCost: 0 } })).response.status).toBe(
      400,
    );
    const byId = { params: { path: { id: made.id } } };
    const patched = await staff.merch.PATCH("/api/v1/consumables/{id}", { ...byId, body: { tokenCost: 4 } });
    expect(patched.data?.tokenCost).toBe(4);
    expect((await anyone.merch.GET("/api/v1/consumables/{id}", byId)).data?.name).toBe("Disco ball");
    const list = await anyone.merch.GET("/api/v1/consumables", { params: { query: { id: made.id } } });
    expect(list.data).toHaveLength(1);
    expect((await anyone.merch.GET("/api/v1/consumables/count", { params: { query: { id: made.id } } })).data).toEqual({
      count: 1,
    });
    expect((await user.merch.DELETE("/api/v1/consumables/{id}", byId)).response.status).toBe(403);
    expect((await staff.merch.DELETE("/api/v1/consumables/{id}", byId)).response.status).toBe(204);
    expect((await anyone.merch.GET("/api/v1/consumables/{id}", byId)).response.status).toBe(404);
    const notImage = new FormData();
    notImage.set("file", new File(["hello"], "x.png"));
    expect((await staff.merch.POST("/files", multipart(notImage))).response.status).toBe(415);
  });
});
