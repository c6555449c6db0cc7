import { BillingInterval, CheckoutMode, CheckoutStatus, PaymentProvider, PaymentType, values } from "@booth/db/schema";
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, noContent, UuidCsv, UuidParam } from "../../lib/openapi.ts";

const tags = ["Products"];

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
    createdAt: z.string(),
    updatedAt: z.string(),
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

export const createProduct = createRoute({
  method: "post",
  path: "/api/v1/products",
  tags,
  summary: "Create a product (admins). A one_time product sells the token bundle whose productId is its id.",
  security: bearer,
  request: jsonBody(CreateBody),
  responses: { 201: json(ProductSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const listProducts = createRoute({
  method: "get",
  path: "/api/v1/products",
  tags,
  summary: "Products, cheapest first (anyone; products no longer for sale only to admins)",
  request: {
    query: z.object({
      id: UuidCsv.optional(),
      paymentType: z.enum(values(PaymentType)).optional(),
      offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
      limit: z.coerce.number().int().min(1).max(100).default(32),
    }),
  },
  responses: { 200: json(z.array(ProductSchema)), ...errors(400) },
});

export const getProduct = createRoute({
  method: "get",
  path: "/api/v1/products/{id}",
  tags,
  summary: "One product (anyone; `active` says whether it is for sale)",
  request: { params: UuidParam },
  responses: { 200: json(ProductSchema), ...errors(400, 404) },
});

export const updateProduct = createRoute({
  method: "patch",
  path: "/api/v1/products/{id}",
  tags,
  summary: "Change a product (admins; its paymentType stays). Checkouts already started keep their price.",
  security: bearer,
  request: { params: UuidParam, ...jsonBody(UpdateBody) },
  responses: { 200: json(ProductSchema), ...errors(400, 401, 403, 404, 409) },
});

export const deleteProduct = createRoute({
  method: "delete",
  path: "/api/v1/products/{id}",
  tags,
  summary: "Delete a product nobody has bought (admins; a bought one is retired with active: false)",
  security: bearer,
  request: { params: UuidParam },
  responses: { ...noContent, ...errors(400, 401, 403, 404, 409) },
});

export const checkoutProduct = createRoute({
  method: "post",
  path: "/api/v1/products/{id}/checkout",
  tags,
  summary:
    "Start buying a one_time product (signed-in users): answers the URL where the buyer pays. Its tokens are credited when the payment is confirmed (Stripe's webhook, or the local test checkout when Stripe is not configured).",
  security: bearer,
  request: { params: UuidParam },
  responses: { 201: json(CheckoutSchema, "Created"), ...errors(400, 401, 403, 404, 409, 429, 502, 503) },
});
