import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { type Booth, sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";
import { SHOP_PAGE } from "./shop.ts";

type Product = Schema<"payment", "Product">;
type Account = Schema<"merch", "TokenAccount">;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Spec 8: what a person reads when their token account cannot be found. */
export const NO_ACCOUNT = "We were unable to find your token account. Please try again.";

const offsetOf = (url: URL, name: string) =>
  Math.min(100_000, Math.max(0, Number.parseInt(url.searchParams.get(name) ?? "0", 10) || 0));

/** The viewer's token account, or null when they have none yet. */
async function accountOf(booth: Booth): Promise<Account | null> {
  try {
    return (await booth.merch.GET("/api/v1/token-accounts/self", {})).data ?? null;
  } catch (e) {
    if (isApiError(e, 404)) return null;
    throw e;
  }
}

/** The viewer's token account, opened on their first visit: nobody should have to ask for one. */
async function ensureAccount(booth: Booth): Promise<Account | null> {
  const account = await accountOf(booth);
  if (account) return account;
  try {
    return (await booth.merch.POST("/api/v1/token-accounts", {})).data ?? null;
  } catch (e) {
    // Opened meanwhile by another tab: read it.
    if (isApiError(e, 409)) return accountOf(booth);
    throw e;
  }
}

/** Balance, token bundles with their prices, consumables, and the rooms a consumable can be sent to. */
export async function loadShop(request: Request) {
  const url = new URL(request.url);
  const bundleOffset = offsetOf(url, "bundles");
  const consumableOffset = offsetOf(url, "consumables");
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  const [bundles, bundleCount, consumables, consumableCount] = await Promise.all([
    booth.merch.GET("/api/v1/token-bundles", { params: { query: { limit: SHOP_PAGE, offset: bundleOffset } } }),
    booth.merch.GET("/api/v1/token-bundles/count", {}),
    booth.merch.GET("/api/v1/consumables", { params: { query: { limit: SHOP_PAGE, offset: consumableOffset } } }),
    booth.merch.GET("/api/v1/consumables/count", {}),
  ]);
  const productIds = (bundles.data ?? []).map((b) => b.productId).filter((id) => UUID.test(id));
  const products: Product[] = productIds.length
    ? ((await booth.payment.GET("/api/v1/products", { params: { query: { id: productIds.join(","), limit: 100 } } }))
        .data ?? [])
    : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  let account: Account | null = null;
  let accountError: string | null = null;
  let rooms: { uuid: string; name: string }[] = [];
  if (viewer) {
    try {
      account = await ensureAccount(booth);
    } catch (e) {
      accountError = userMessage(e, request);
    }
    const recent = await booth.room.GET("/rooms/recent", { params: { query: { limit: 20 } } }).catch(() => null);
    rooms = (recent?.data ?? []).map((r) => ({ uuid: r.uuid, name: r.name }));
  }
  const checkout = url.searchParams.get("checkout");
  return {
    signedIn: Boolean(viewer),
    account,
    accountError,
    bundles: (bundles.data ?? []).map((b) => {
      const product = byId.get(b.productId);
      return {
        ...b,
        price: product?.active ? { cents: product.priceCents, currency: product.currency } : null,
        description: product?.description ?? null,
      };
    }),
    bundleTotal: bundleCount.data?.count ?? 0,
    bundleOffset,
    consumables: consumables.data ?? [],
    consumableTotal: consumableCount.data?.count ?? 0,
    consumableOffset,
    rooms,
    checkout: checkout && UUID.test(checkout) ? { id: checkout, result: url.searchParams.get("result") } : null,
  };
}

type Outcome = { intent: string; ok: boolean; error: string | null; notice?: string };
const refused = (intent: string, error: string) => data<Outcome>({ intent, ok: false, error }, { status: 400 });

/** Buying a bundle (off to the checkout page), opening a token account, spending tokens on a consumable. */
export async function shopAction(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  const intent = field(form, "intent");
  const booth = sdkFor(token);
  try {
    if (intent === "buy-bundle") {
      const productId = field(form, "productId");
      if (!UUID.test(productId)) return refused(intent, "This bundle is not for sale.");
      const { data: checkout } = await booth.payment.POST("/api/v1/products/{id}/checkout", {
        params: { path: { id: productId } },
      });
      if (!checkout?.url) return refused(intent, "Something went wrong, please try again");
      return redirect(checkout.url);
    }
    if (intent === "open-account") {
      await booth.merch.POST("/api/v1/token-accounts", {});
      return { intent, ok: true, error: null } satisfies Outcome;
    }
    if (intent === "buy-consumable") {
      const consumableId = field(form, "consumableId");
      const roomUuid = field(form, "roomUuid");
      const accountId = field(form, "accountId");
      const tokenCost = Number.parseInt(field(form, "tokenCost"), 10);
      const lastTokenBalance = Number.parseInt(field(form, "lastTokenBalance"), 10);
      const balanceUnmodifiedSince = field(form, "balanceUnmodifiedSince");
      // Spec 5: a consumable purchase needs a loaded token account.
      if (!UUID.test(accountId)) return refused(intent, NO_ACCOUNT);
      if (!UUID.test(consumableId) || !(tokenCost > 0)) return refused(intent, "Choose a consumable.");
      if (!UUID.test(roomUuid)) return refused(intent, "Choose the room to send it to.");
      await booth.merch.POST("/api/v1/consumable-purchases", {
        body: {
          consumableId,
          roomUuid,
          accountId,
          tokenCost,
          ...(lastTokenBalance >= 0 ? { lastTokenBalance } : {}),
          ...(balanceUnmodifiedSince ? { balanceUnmodifiedSince } : {}),
        },
      });
      return { intent, ok: true, error: null, notice: consumableId } satisfies Outcome;
    }
    return refused(intent, "Unknown action.");
  } catch (e) {
    if (isApiError(e, 404) && intent === "buy-consumable" && /token account/i.test(e.message))
      return refused(intent, NO_ACCOUNT);
    return refused(intent, userMessage(e, request));
  }
}
