import { schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { recordingLiveRooms } from "../../ports/live-rooms.ts";
import { createTestApp, type TestApp } from "../../testing.ts";
import { credit, hold } from "./ledger.ts";

let t: TestApp;
/** The room purchases are made for. */
let room: string;
beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.createUser();
  const made = await t.request("POST", "/api/room-service/rooms/infrastructure", {
    token: owner.token,
    body: { name: "Shop floor" },
  });
  room = made.body.uuid;
});
afterAll(() => t.close());

const M = "/api/merch-service";
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

/** A user with a token account holding `tokens`. */
async function funded(tokens: number) {
  const u = await t.createUser();
  const account = (await t.request("POST", `${M}/api/v1/token-accounts`, { token: u.token })).body;
  if (tokens)
    await t.db.transaction((tx) =>
      credit(tx, { accountId: account.id, amount: tokens, reason: "test grant" }, t.clock.now()),
    );
  return { ...u, accountId: account.id as string };
}
async function balance(accountId: string) {
  const [row] = await t.db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.id, accountId));
  return { balance: row?.balance, held: row?.held };
}
let admin: Awaited<ReturnType<TestApp["createUser"]>>;
async function consumable(tokenCost: number) {
  admin ??= await t.createUser({ roles: ["user", "admin"] });
  return (
    await t.request("POST", `${M}/api/v1/consumables`, {
      token: admin.token,
      body: { name: `Confetti ${tokenCost}`, tokenCost, displayType: "cover" },
    })
  ).body;
}

describe("token accounts", () => {
  it("opens one account per user and shows it to its owner", async () => {
    const { token, user } = await t.createUser();
    const missing = await t.request("GET", `${M}/api/v1/token-accounts/self`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("We were unable to find your token account. Please try again.");
    const made = await t.request("POST", `${M}/api/v1/token-accounts`, { token });
    expect(made.body).toMatchObject({ userUuid: user.uuid, balance: 0, held: 0, status: "active" });
    expect((await t.request("POST", `${M}/api/v1/token-accounts`, { token })).status).toBe(409);
    expect((await t.request("GET", `${M}/api/v1/token-accounts/self`, { token })).body.id).toBe(made.body.id);
    const other = await t.createUser();
    expect((await t.request("GET", `${M}/api/v1/token-accounts/${made.body.id}`, { token: other.token })).status).toBe(
      403,
    );
    expect(
      (await t.request("GET", `${M}/api/v1/token-accounts/${made.body.id}`, { token: await t.serviceToken() })).status,
    ).toBe(200);
    expect((await t.request("GET", `${M}/api/v1/token-accounts/${made.body.id}`)).status).toBe(401);
  });
});

describe("credits", () => {
  it("admins and services credit tokens, once per idempotency key; users cannot", async () => {
    const u = await funded(0);
    const body = { amount: 25, reason: "welcome gift" };
    expect(
      (await t.request("POST", `${M}/api/v1/token-accounts/${u.accountId}/credit`, { token: u.token, body })).status,
    ).toBe(403);
    const service = await t.serviceToken();
    const first = await t.request("POST", `${M}/api/v1/token-accounts/${u.accountId}/credit`, {
      token: service,
      body,
      headers: { "idempotency-key": "gift-1" },
    });
    expect(first.body.account.balance).toBe(25);
    const again = await t.request("POST", `${M}/api/v1/token-accounts/${u.accountId}/credit`, {
      token: service,
      body,
      headers: { "idempotency-key": "gift-1" },
    });
    expect(again.body.transaction.id).toBe(first.body.transaction.id);
    expect(await balance(u.accountId)).toEqual({ balance: 25, held: 0 });
    expect(
      (await t.request("POST", `${M}/api/v1/token-accounts/${crypto.randomUUID()}/credit`, { token: service, body }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.request("POST", `${M}/api/v1/token-accounts/${u.accountId}/credit`, {
          token: service,
          body: { amount: -5, reason: "x" },
        })
      ).status,
    ).toBe(400);
  });
});

describe("purchases", () => {
  it("100 concurrent purchases against a balance that covers 10 give exactly 10 and a balance of 0", async () => {
    const buyer = await funded(50);
    const item = await consumable(5);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.request("POST", `${M}/api/v1/consumable-purchases`, {
          token: buyer.token,
          body: { roomUuid: room, consumableId: item.id, accountId: buyer.accountId, tokenCost: 5 },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 402)).toBe(true);
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
    const price = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body: { ...base, tokenCost: 6 },
    });
    expect(price.status).toBe(409);
    expect(price.body.message).toBe("The price of this item has changed; please review it and try again.");
    const stale = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body: { ...base, tokenCost: 7, lastTokenBalance: 25 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe("Your token balance has changed; please review it and try again.");
    const old = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body: { ...base, tokenCost: 7, balanceUnmodifiedSince: new Date(t.clock.now().getTime() - 60_000).toISOString() },
    });
    expect(old.status).toBe(409);
    expect(await balance(buyer.accountId)).toEqual({ balance: 20, held: 0 });
    const fresh = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body: { ...base, tokenCost: 7, lastTokenBalance: 20 },
    });
    expect(fresh.status).toBe(201);
    expect(fresh.body.account.balance).toBe(13);
  });

  it("a retried purchase with the same idempotency key moves tokens once", async () => {
    const buyer = await funded(30);
    const item = await consumable(10);
    const body = { roomUuid: room, consumableId: item.id, accountId: buyer.accountId, tokenCost: 10 };
    const first = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body,
      headers: { "idempotency-key": "buy-1" },
    });
    const retries = await Promise.all(
      [1, 2, 3].map(() =>
        t.request("POST", `${M}/api/v1/consumable-purchases`, {
          token: buyer.token,
          body,
          headers: { "idempotency-key": "buy-1" },
        }),
      ),
    );
    expect(retries.every((r) => r.status === 201 && r.body.id === first.body.id)).toBe(true);
    expect(await balance(buyer.accountId)).toEqual({ balance: 20, held: 0 });
    // The room saw it once.
    const live = t.deps.liveRooms as ReturnType<typeof recordingLiveRooms>;
    expect(
      live.events.filter((e) => e.event.type === "showConsumable" && e.event.consumable.purchaseId === first.body.id),
    ).toHaveLength(1);
  });

  it("shows the purchase in the room it was bought for, with the buyer and the item", async () => {
    const buyer = await funded(5);
    const item = await consumable(3);
    const live = t.deps.liveRooms as ReturnType<typeof recordingLiveRooms>;
    const made = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body: { roomUuid: room, consumableId: item.id, accountId: buyer.accountId, tokenCost: 3 },
    });
    expect(made.status).toBe(201);
    expect(live.events.at(-1)).toEqual({
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
          purchaseId: made.body.id,
        },
      },
    });
    // A room that does not exist is refused before any token moves.
    const nowhere = await t.request("POST", `${M}/api/v1/consumable-purchases`, {
      token: buyer.token,
      body: { roomUuid: crypto.randomUUID(), consumableId: item.id, accountId: buyer.accountId, tokenCost: 3 },
    });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.message).toBe("Room not found.");
    expect(await balance(buyer.accountId)).toEqual({ balance: 2, held: 0 });
  });

  it("only the account's owner buys with it", async () => {
    const owner = await funded(10);
    const thief = await t.createUser();
    const item = await consumable(1);
    const body = { roomUuid: room, consumableId: item.id, accountId: owner.accountId, tokenCost: 1 };
    expect((await t.request("POST", `${M}/api/v1/consumable-purchases`, { token: thief.token, body })).status).toBe(
      403,
    );
    expect((await t.request("POST", `${M}/api/v1/consumable-purchases`, { body })).status).toBe(401);
    expect(
      (
        await t.request("POST", `${M}/api/v1/consumable-purchases`, {
          token: owner.token,
          body: { ...body, consumableId: crypto.randomUUID() },
        })
      ).status,
    ).toBe(404);
    expect(await balance(owner.accountId)).toEqual({ balance: 10, held: 0 });
  });
});

describe("holds", () => {
  it("a concurrent commit and void of one hold: one wins, the other is refused", async () => {
    const u = await funded(10);
    const service = await t.serviceToken();
    for (let round = 0; round < 5; round++) {
      const { transaction } = await t.db.transaction((tx) =>
        hold(tx, { accountId: u.accountId, amount: 2 }, t.clock.now()),
      );
      const [commit, voided] = await Promise.all([
        t.request("POST", `${M}/api/v1/token-transactions/commit`, {
          token: service,
          body: { holdId: transaction.id },
        }),
        t.request("POST", `${M}/api/v1/token-transactions/void`, { token: service, body: { holdId: transaction.id } }),
      ]);
      expect([commit.status, voided.status].sort()).toEqual([200, 409]);
      const loser = commit.status === 409 ? commit : voided;
      expect(loser.body.message).toBe("This hold has already been committed or voided.");
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
    expect(
      (
        await t.request("POST", `${M}/api/v1/token-transactions/void`, {
          token: u.token,
          body: { holdId: transaction.id },
        })
      ).status,
    ).toBe(403);
    const res = await t.request("POST", `${M}/api/v1/token-transactions/void`, {
      token: await t.serviceToken(),
      body: { holdId: transaction.id },
    });
    expect(res.body.account).toMatchObject({ balance: 10, held: 0 });
    expect(
      (
        await t.request("POST", `${M}/api/v1/token-transactions/commit`, {
          token: await t.serviceToken(),
          body: { holdId: crypto.randomUUID() },
        })
      ).status,
    ).toBe(404);
  });
});

describe("consumables", () => {
  it("admins manage them; anyone lists, counts and reads them", async () => {
    admin ??= await t.createUser({ roles: ["user", "admin"] });
    const user = await t.createUser();
    const form = new FormData();
    form.set("file", new File([PNG], "c.png", { type: "image/png" }));
    const file = await t.request("POST", `${M}/files`, { token: admin.token, body: form });
    expect(file.status).toBe(201);
    expect((await t.app.request(file.body.url)).headers.get("content-type")).toBe("image/png");
    const made = await t.request("POST", `${M}/api/v1/consumables`, {
      token: admin.token,
      body: { name: "Disco ball", tokenCost: 3, fileId: file.body.id },
    });
    expect(made.body).toMatchObject({ name: "Disco ball", displayType: "small", fileUrl: file.body.url });
    expect(
      (await t.request("POST", `${M}/api/v1/consumables`, { token: user.token, body: { name: "x", tokenCost: 1 } }))
        .status,
    ).toBe(403);
    expect(
      (await t.request("POST", `${M}/api/v1/consumables`, { token: admin.token, body: { name: "x", tokenCost: 0 } }))
        .status,
    ).toBe(400);
    const patched = await t.request("PATCH", `${M}/api/v1/consumables/${made.body.id}`, {
      token: admin.token,
      body: { tokenCost: 4 },
    });
    expect(patched.body.tokenCost).toBe(4);
    expect((await t.request("GET", `${M}/api/v1/consumables/${made.body.id}`)).body.name).toBe("Disco ball");
    const list = await t.request("GET", `${M}/api/v1/consumables`, { query: { id: made.body.id } });
    expect(list.body).toHaveLength(1);
    expect((await t.request("GET", `${M}/api/v1/consumables/count`, { query: { id: made.body.id } })).body).toEqual({
      count: 1,
    });
    expect((await t.request("DELETE", `${M}/api/v1/consumables/${made.body.id}`, { token: user.token })).status).toBe(
      403,
    );
    expect((await t.request("DELETE", `${M}/api/v1/consumables/${made.body.id}`, { token: admin.token })).status).toBe(
      204,
    );
    expect((await t.request("GET", `${M}/api/v1/consumables/${made.body.id}`)).status).toBe(404);
    const notImage = new FormData();
    notImage.set("file", new File(["hello"], "x.png"));
    expect((await t.request("POST", `${M}/files`, { token: admin.token, body: notImage })).status).toBe(415);
  });
});
