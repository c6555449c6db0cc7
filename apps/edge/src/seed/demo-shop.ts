import { schema } from "@booth/db";
import { count } from "drizzle-orm";
import type { AppDeps } from "../deps.ts";

/** What the shop of a fresh instance sells: token bundles (paid at the local test checkout) and room consumables. */
export const DEMO_BUNDLES = [
  { name: "Handful of tokens", tokens: 100, priceCents: 199 },
  { name: "Pocket of tokens", tokens: 550, priceCents: 999 },
  { name: "Crate of tokens", tokens: 1200, priceCents: 1999 },
] as const;

export const DEMO_CONSUMABLES = [
  { name: "Confetti", description: "A burst of confetti over the room.", tokenCost: 10, displayType: "small" },
  { name: "Air horn", description: "Everyone hears that the drop landed.", tokenCost: 25, displayType: "small" },
  {
    name: "Spotlight",
    description: "The booth's cover glows for the current song.",
    tokenCost: 50,
    displayType: "cover",
  },
] as const;

/**
 * Stocks the empty shop of a fresh instance: the bundles (each with the one-time product that sells it) and the
 * consumables. Each kind is added only when there is none of it at all, so a shop an admin stocked is left alone.
 * Answers what it added.
 */
export async function seedDemoShop(deps: AppDeps) {
  const { db, clock } = deps;
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [bundles] = await tx.select({ n: count() }).from(schema.tokenBundles);
    const [products] = await tx.select({ n: count() }).from(schema.paymentProducts);
    let addedBundles = 0;
    if (!bundles?.n && !products?.n)
      for (const bundle of DEMO_BUNDLES) {
        const [product] = await tx
          .insert(schema.paymentProducts)
          .values({
            name: bundle.name,
            description: `${bundle.tokens} tokens`,
            paymentType: "one_time",
            priceCents: bundle.priceCents,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!product) throw new Error("demo product insert returned nothing");
        await tx.insert(schema.tokenBundles).values({
          productId: product.id,
          name: bundle.name,
          tokens: bundle.tokens,
          createdAt: now,
          updatedAt: now,
        });
        addedBundles++;
      }
    const [consumables] = await tx.select({ n: count() }).from(schema.consumables);
    let addedConsumables = 0;
    if (!consumables?.n) {
      await tx
        .insert(schema.consumables)
        .values(DEMO_CONSUMABLES.map((c) => ({ ...c, createdAt: now, updatedAt: now })));
      addedConsumables = DEMO_CONSUMABLES.length;
    }
    return { bundles: addedBundles, consumables: addedConsumables };
  });
}
