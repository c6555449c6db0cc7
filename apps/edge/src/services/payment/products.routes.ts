import { BillingInterval, CheckoutMode, CheckoutStatus, PaymentProvider, PaymentType, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { adminContracts } from "../../lib/admin-resource.ts";
import { contracts, created, Timestamps, UuidCsv, UuidParam } from "../../lib/openapi.ts";

const { authed } = contracts(["Products"]);

export const ProductSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    paymentType: z.enum(values(PaymentType)),
    priceCents: z.number().int(),
    currency: z.string(),
    interval: z.enum(values(BillingInterval)).nullable(),
    level: z.string().nullable(),
    tokens: z.number().int().nullable().openapi({ description: "one_time: the tokens its token bundle credits" }),
    stripePriceId: z.string().nullable(),
    appleProductId: z.string().nullable(),
    active: z.boolean(),
    ...Timestamps,
  })
  .openapi("Product");

export const CheckoutSchema = z
  .object({
    id: z.uuid(),
    productId: z.uuid(),
    mode: z.enum(values(CheckoutMode)),
    provider: z.enum(values(PaymentProvider)),
    status: z.enum(values(CheckoutStatus)),
    url: z.string().nullable().openapi({
      description:
        "Where the buyer pays: Stripe's checkout, or the web app's local test checkout page (/checkout/{id})",
    }),
    tokens: z.number().int().nullable(),
    amountCents: z.number().int(),
    currency: z.string(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi("Checkout");

const Fields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  priceCents: z.number().int().min(1).max(100_000_000).openapi({ description: "In the currency's smallest unit" }),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "an ISO 4217 code such as usd")
    .transform((s) => s.toLowerCase()),
  interval: z.enum(values(BillingInterval)).nullable().optional(),
  level: z.string().trim().min(1).max(50).nullable().optional(),
  stripePriceId: z
    .string()
    .regex(/^price_[A-Za-z0-9_]{1,200}$/, "a Stripe price id (price_...)")
    .nullable()
    .optional(),
  appleProductId: z.string().trim().min(1).max(200).nullable().optional(),
  active: z.boolean().optional(),
};
const CreateBody = z.object({
  ...Fields,
  currency: Fields.currency.default("usd"),
  paymentType: z.enum(values(PaymentType)).default("one_time"),
});
const UpdateBody = z.object(Fields).partial();

const admin = adminContracts({
  tags: ["Products"],
  path: "/api/v1/products",
  item: ProductSchema,
  body: CreateBody,
  patch: UpdateBody,
});

export const createProduct = admin.create(
  "Create a product (admins). A one_time product sells the token bundle whose productId is its id.",
  409,
);

export const listProducts = admin.list(
  "Products, cheapest first (anyone; products no longer for sale only to admins)",
  z.object({
    id: UuidCsv.optional(),
    paymentType: z.enum(values(PaymentType)).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
    limit: z.coerce.number().int().min(1).max(100).default(32),
  }),
);

export const getProduct = admin.get("One product (anyone; `active` says whether it is for sale)");

export const updateProduct = admin.update(
  "Change a product (admins; its paymentType stays). Checkouts already started keep their price.",
  409,
);

export const deleteProduct = admin.remove(
  "delete",
  "Delete a product nobody has bought (admins; a bought one is retired with active: false)",
  409,
);

export const checkoutProduct = authed("post", "/api/v1/products/{id}/checkout", {
  summary:
    "Start buying a one_time product (signed-in users): answers the URL where the buyer pays. Its tokens are credited when the payment is confirmed (Stripe's webhook, or the local test checkout when Stripe is not configured).",
  request: { params: UuidParam },
  responses: created(CheckoutSchema, 400, 401, 403, 404, 409, 429, 502, 503),
});
