import type { Command } from "commander";
import { action, type BoothCommand, type Context, contextOf, table } from "../context.ts";
import { uploadImage } from "./avatars.ts";

/** "1.99" (in the currency's main unit) as cents; a clear error for anything else. */
export function cents(price: string, option = "--price") {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(price)) throw new Error(`${option}: a price such as 4.99`);
  const [whole = "0", fraction = ""] = price.split(".");
  const value = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (value < 1) throw new Error(`${option}: more than 0`);
  return value;
}

function count(value: string, option: string) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${option}: a whole number from 1`);
  return n;
}

const money = (priceCents: number, currency: string) => `${(priceCents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** The bundles with what each costs and whether it is for sale (its product's price and state). */
async function bundleRows(ctx: Context) {
  const { data: bundles } = await ctx.client.merch.GET("/api/v1/token-bundles", { params: { query: { limit: 100 } } });
  const ids = (bundles ?? []).map((b) => b.productId);
  const { data: products } = ids.length
    ? await ctx.client.payment.GET("/api/v1/products", { params: { query: { id: ids.join(","), limit: 100 } } })
    : { data: [] };
  const byId = new Map((products ?? []).map((p) => [p.id, p]));
  return (bundles ?? []).map((b) => {
    const product = byId.get(b.productId);
    return {
      ...b,
      price: product ? money(product.priceCents, product.currency) : "",
      forSale: Boolean(product?.active),
    };
  });
}

async function consumableRows(ctx: Context) {
  const { data } = await ctx.client.merch.GET("/api/v1/consumables", { params: { query: { limit: 100 } } });
  return data ?? [];
}

const BUNDLE_COLUMNS = ["id", "name", "tokens", "price", "forSale"];
const CONSUMABLE_COLUMNS = ["id", "name", "tokenCost", "displayType", "description"];

export function shopCommands(program: BoothCommand) {
  const shop = program
    .command("shop")
    .description("The token shop: bundles people buy with money, consumables they spend tokens on (admins)");
  shop
    .command("list")
    .description("Everything in the shop (anyone)")
    .json()
    .examples("booth shop list")
    .run(async (ctx) => {
      const [bundles, consumables] = await Promise.all([bundleRows(ctx), consumableRows(ctx)]);
      ctx.print(
        { bundles, consumables },
        () =>
          `Token bundles\n${table(bundles, BUNDLE_COLUMNS)}\n\nConsumables\n${table(consumables as Record<string, unknown>[], CONSUMABLE_COLUMNS)}`,
      );
    });

  const bundles = shop
    .command("bundles")
    .description("Token bundles: a number of tokens sold at a price")
    .examples("booth shop bundles list", "booth shop bundles create 'Handful of tokens' --tokens 100 --price 1.99");
  bundles
    .command("list")
    .description("Every bundle, with its price and whether it is for sale")
    .option("--json")
    .examples("booth shop bundles list")
    .run(async (ctx) => {
      const rows = await bundleRows(ctx);
      ctx.print(rows, () => table(rows, BUNDLE_COLUMNS));
    });
  bundles
    .command("create <name>")
    .description("Put a bundle on sale: its product (the price) and the bundle (the tokens)")
    .requiredOption("--tokens <n>", "the tokens it credits")
    .requiredOption("--price <price>", "what it costs, e.g. 4.99")
    .option("--currency <code>", "the price's currency", "usd")
    .json()
    .examples("booth shop bundles create 'Pocket of tokens' --tokens 550 --price 9.99")
    .action(
      action(async (name: string, o: { tokens: string; price: string; currency: string }, command: Command) => {
        const tokens = count(o.tokens, "--tokens");
        const priceCents = cents(o.price);
        const ctx = await contextOf(command);
        const { data: product } = await ctx.client.payment.POST("/api/v1/products", {
          body: { name, description: `${tokens} tokens`, paymentType: "one_time", priceCents, currency: o.currency },
        });
        if (!product) throw new Error("the product was not created");
        try {
          const { data } = await ctx.client.merch.POST("/api/v1/token-bundles", {
            body: { productId: product.id, name, tokens },
          });
          ctx.print(
            { ...data, price: money(product.priceCents, product.currency) },
            () => `On sale: ${name}, ${tokens} tokens for ${money(product.priceCents, product.currency)} (${data?.id})`,
          );
        } catch (err) {
          // No product without its bundle: take the price back off sale.
          await ctx.client.payment.DELETE("/api/v1/products/{id}", { params: { path: { id: product.id } } });
          throw err;
        }
      }),
    );
  bundles
    .command("update <id>")
    .description("Change a bundle's name, tokens or price (checkouts already started keep their price)")
    .option("--name <name>")
    .option("--tokens <n>")
    .option("--price <price>")
    .json()
    .examples("booth shop bundles update 5f0c... --price 7.99")
    .action(
      action(async (id: string, o: { name?: string; tokens?: string; price?: string }, command: Command) => {
        const tokens = o.tokens === undefined ? undefined : count(o.tokens, "--tokens");
        const priceCents = o.price === undefined ? undefined : cents(o.price);
        if (o.name === undefined && tokens === undefined && priceCents === undefined)
          throw new Error("nothing to change: give --name, --tokens or --price");
        const ctx = await contextOf(command);
        const { data: bundle } = await ctx.client.merch.GET("/api/v1/token-bundles/{id}", { params: { path: { id } } });
        if (!bundle) throw new Error("bundle not found");
        if (o.name !== undefined || tokens !== undefined)
          await ctx.client.merch.PATCH("/api/v1/token-bundles/{id}", {
            params: { path: { id } },
            body: { ...(o.name !== undefined ? { name: o.name } : {}), ...(tokens !== undefined ? { tokens } : {}) },
          });
        if (o.name !== undefined || priceCents !== undefined)
          await ctx.client.payment.PATCH("/api/v1/products/{id}", {
            params: { path: { id: bundle.productId } },
            body: {
              ...(o.name !== undefined ? { name: o.name } : {}),
              ...(priceCents !== undefined ? { priceCents } : {}),
              ...(tokens !== undefined ? { description: `${tokens} tokens` } : {}),
            },
          });
        const row = (await bundleRows(ctx)).find((b) => b.id === id);
        ctx.print(row, () => `Updated ${row?.name}: ${row?.tokens} tokens for ${row?.price}`);
      }),
    );
  for (const [verb, active, description] of [
    ["retire", false, "Take a bundle off sale (those who bought it keep their tokens)"],
    ["restock", true, "Put a retired bundle back on sale"],
  ] as const)
    bundles
      .command(`${verb} <id>`)
      .description(description)
      .json()
      .examples(`booth shop bundles ${verb} 5f0c...`)
      .run(async (ctx, id: string) => {
        const { data: bundle } = await ctx.client.merch.GET("/api/v1/token-bundles/{id}", {
          params: { path: { id } },
        });
        if (!bundle) throw new Error("bundle not found");
        const { data } = await ctx.client.payment.PATCH("/api/v1/products/{id}", {
          params: { path: { id: bundle.productId } },
          body: { active },
        });
        ctx.print(data, () => `${bundle.name} is ${active ? "on sale again" : "off sale"}`);
      });

  const consumables = shop
    .command("consumables")
    .description("Consumables: what people send to a room for tokens")
    .examples("booth shop consumables list", "booth shop consumables create 'Air horn' --cost 25");
  consumables
    .command("list")
    .description("Every consumable")
    .json()
    .examples("booth shop consumables list")
    .run(async (ctx) => {
      const rows = await consumableRows(ctx);
      ctx.print(rows, () => table(rows as Record<string, unknown>[], CONSUMABLE_COLUMNS));
    });
  interface ConsumableOptions {
    cost?: string;
    description?: string;
    cover?: boolean;
    image?: string;
    name?: string;
  }
  const consumableBody = async (ctx: Context, o: ConsumableOptions) => ({
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.cost !== undefined ? { tokenCost: count(o.cost, "--cost") } : {}),
    ...(o.description !== undefined ? { description: o.description || null } : {}),
    ...(o.cover !== undefined ? { displayType: o.cover ? ("cover" as const) : ("small" as const) } : {}),
    ...(o.image ? { fileId: await uploadImage(ctx, o.image) } : {}),
  });
  consumables
    .command("create <name>")
    .description("Add a consumable")
    .requiredOption("--cost <tokens>", "what it costs in tokens")
    .option("--description <text>")
    .option("--cover", "shown large, over the booth's cover")
    .option("--image <file>", "a png, jpeg, webp or gif to upload as its picture")
    .json()
    .examples("booth shop consumables create Confetti --cost 10 --description 'A burst of confetti'")
    .run(async (ctx, name: string, o: ConsumableOptions) => {
      const body = await consumableBody(ctx, o);
      const { data } = await ctx.client.merch.POST("/api/v1/consumables", {
        body: { ...body, name, tokenCost: body.tokenCost ?? 1 },
      });
      ctx.print(data, () => `Added ${data?.name} for ${data?.tokenCost} tokens (${data?.id})`);
    });
  consumables
    .command("update <id>")
    .description("Change a consumable")
    .option("--name <name>")
    .option("--cost <tokens>")
    .option("--description <text>", "'' clears it")
    .option("--cover", "shown large")
    .option("--no-cover", "shown small")
    .option("--image <file>", "a new picture")
    .json()
    .examples("booth shop consumables update 5f0c... --cost 15")
    .run(async (ctx, id: string, o: ConsumableOptions) => {
      const body = await consumableBody(ctx, o);
      if (Object.keys(body).length === 0)
        throw new Error("nothing to change: give --name, --cost, --description, --cover or --image");
      const { data } = await ctx.client.merch.PATCH("/api/v1/consumables/{id}", { params: { path: { id } }, body });
      ctx.print(data, () => `Updated ${data?.name}: ${data?.tokenCost} tokens`);
    });
  consumables
    .command("delete <id>")
    .description("Remove a consumable nobody has bought (one that was bought stays, for the purchase history)")
    .json()
    .examples("booth shop consumables delete 5f0c...")
    .run(async (ctx, id: string) => {
      await ctx.client.merch.DELETE("/api/v1/consumables/{id}", { params: { path: { id } } });
      ctx.print({ deleted: id }, () => `Deleted ${id}`);
    });
}
