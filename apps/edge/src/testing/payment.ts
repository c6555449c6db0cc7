// Test support for the payment service: a local fake of the few Stripe endpoints the service calls, signed Stripe
// events, and a test certificate authority that signs App Store notifications the way Apple does. Used by tests only.
import "reflect-metadata";
import { createServer, type Server } from "node:http";
import { schema } from "@booth/db";
import { BasicConstraintsExtension, Extension, type X509Certificate, X509CertificateGenerator } from "@peculiar/x509";
import { eq } from "drizzle-orm";
import { CompactSign } from "jose";
import Stripe from "stripe";
import { expect } from "vitest";
import { defaultConfig, type PaymentConfig } from "../deps.ts";
import { APPLE_INTERMEDIATE_OID, APPLE_LEAF_OID } from "../services/payment/apple.ts";
import { ok } from "./api.ts";
import { createTestApp, type TestApp } from "./app.ts";
import { closeServer, listenLocally, requestText } from "./local-server.ts";

export interface FakeStripeRequest {
  method: string;
  path: string;
  auth: string;
  params: URLSearchParams;
}

/** Stripe's API as far as the payment service uses it: customers, checkout sessions, billing portal sessions. */
export async function startFakeStripe() {
  const requests: FakeStripeRequest[] = [];
  const state = { failNext: false, counter: 0 };
  const server: Server = createServer(async (req, res) => {
    const body = await requestText(req);
    const path = (req.url ?? "").split("?")[0] ?? "";
    const params = new URLSearchParams(body);
    requests.push({ method: req.method ?? "", path, auth: req.headers.authorization ?? "", params });
    res.setHeader("content-type", "application/json");
    res.setHeader("request-id", `req_${++state.counter}`);
    const send = (status: number, payload: unknown) => {
      res.statusCode = status;
      res.end(JSON.stringify(payload));
    };
    if (state.failNext) {
      state.failNext = false;
      return send(400, { error: { type: "invalid_request_error", message: "Your card was declined by the fake." } });
    }
    const n = state.counter;
    const metadata = Object.fromEntries(
      [...params].filter(([k]) => /^metadata\[/.test(k)).map(([k, v]) => [k.slice(9, -1), v]),
    );
    if (req.method === "POST" && path === "/v1/customers")
      return send(200, { id: `cus_fake${n}`, object: "customer", email: params.get("email"), metadata });
    if (req.method === "POST" && path === "/v1/checkout/sessions")
      return send(200, {
        id: `cs_test_fake${n}`,
        object: "checkout.session",
        mode: params.get("mode"),
        customer: params.get("customer"),
        client_reference_id: params.get("client_reference_id"),
        metadata,
        payment_status: "unpaid",
        status: "open",
        url: `https://checkout.stripe.test/c/pay/cs_test_fake${n}`,
      });
    if (req.method === "POST" && path === "/v1/billing_portal/sessions")
      return send(200, {
        id: `bps_fake${n}`,
        object: "billing_portal.session",
        customer: params.get("customer"),
        url: `https://billing.stripe.test/p/session/fake${n}`,
      });
    send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${path}).` } });
  });
  const url = await listenLocally(server);
  return {
    url,
    requests,
    state,
    close: () => closeServer(server),
  };
}

/** A Stripe event body and its Stripe-Signature header, signed the way Stripe signs them. */
export async function signedStripeEvent(
  secret: string,
  event: { id: string; type: string; created: number; object: Record<string, unknown> },
  signedAt = event.created,
) {
  const payload = JSON.stringify(
    {
      id: event.id,
      object: "event",
      api_version: "2026-10-28.endive",
      created: event.created,
      type: event.type,
      livemode: false,
      data: { object: event.object },
    },
    null,
    2,
  );
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    timestamp: signedAt,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, signature };
}

const EC = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const APPLE_MARKER = new Uint8Array([5, 0]); // DER NULL, as in Apple's certificates
const der = (cert: X509Certificate) => Buffer.from(cert.rawData).toString("base64");
const newKeys = () => crypto.subtle.generateKey(EC, true, ["sign", "verify"]) as Promise<CryptoKeyPair>;

export interface TestCa {
  rootPem: string;
  /** Signs an App Store JWS with the leaf key, its x5c chain leaf -> intermediate -> root. */
  sign(payload: unknown): Promise<string>;
}

/** A certificate authority shaped like Apple's (root, intermediate, leaf with Apple's marker extensions). */
export async function createTestCa(
  options: { notBefore?: Date; notAfter?: Date; leafNotAfter?: Date; name?: string } = {},
): Promise<TestCa> {
  const notBefore = options.notBefore ?? new Date("2026-01-01T00:00:00Z");
  const notAfter = options.notAfter ?? new Date("2030-01-01T00:00:00Z");
  const name = options.name ?? "Test App Store";
  const [rootKeys, interKeys, leafKeys] = await Promise.all([newKeys(), newKeys(), newKeys()]);
  const root = await X509CertificateGenerator.createSelfSigned({
    name: `CN=${name} Root CA`,
    keys: rootKeys,
    notBefore,
    notAfter,
    signingAlgorithm: EC,
    extensions: [new BasicConstraintsExtension(true, undefined, true)],
  });
  const intermediate = await X509CertificateGenerator.create({
    subject: `CN=${name} Worldwide Developer Relations`,
    issuer: root.subject,
    publicKey: interKeys.publicKey,
    signingKey: rootKeys.privateKey,
    notBefore,
    notAfter,
    signingAlgorithm: EC,
    extensions: [
      new BasicConstraintsExtension(true, 0, true),
      new Extension(APPLE_INTERMEDIATE_OID, false, APPLE_MARKER),
    ],
  });
  const leaf = await X509CertificateGenerator.create({
    subject: `CN=${name} Server Notifications`,
    issuer: intermediate.subject,
    publicKey: leafKeys.publicKey,
    signingKey: interKeys.privateKey,
    notBefore,
    notAfter: options.leafNotAfter ?? notAfter,
    signingAlgorithm: EC,
    extensions: [new BasicConstraintsExtension(false), new Extension(APPLE_LEAF_OID, false, APPLE_MARKER)],
  });
  const x5c = [der(leaf), der(intermediate), der(root)];
  return {
    rootPem: root.toString("pem"),
    sign: (payload) =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader({ alg: "ES256", x5c })
        .sign(leafKeys.privateKey),
  };
}

/** A test app with these payment settings; its providers stay on a closed local port, as every test app's do. */
export function createPaymentTestApp(payments: PaymentConfig) {
  return createTestApp({
    config: {
      ...defaultConfig,
      providers: {
        ...defaultConfig.providers,
        spotifyApiUrl: "http://127.0.0.1:9",
        appleMusicApiUrl: "http://127.0.0.1:9",
        audiusApiUrl: "http://127.0.0.1:9",
      },
      payments,
    },
  });
}

/** A one-time product of `priceCents` that sells a merch bundle of `tokens` (both made by the admin `adminToken`). */
export async function tokenBundleProduct(t: TestApp, adminToken: string, tokens: number, priceCents: number) {
  const admin = t.api(adminToken);
  const name = `${tokens} tokens`;
  const product = await admin.payment.POST("/api/v1/products", { body: { name, priceCents } });
  expect(product.response.status).toBe(201);
  const { id } = ok(product);
  const bundle = await admin.merch.POST("/api/v1/token-bundles", { body: { productId: id, name, tokens } });
  expect(bundle.response.status).toBe(201);
  return { id, name };
}

/** A user's token balance; null when they have no token account. */
export async function tokenBalance(t: TestApp, userUuid: string) {
  const [row] = await t.db.select().from(schema.tokenAccounts).where(eq(schema.tokenAccounts.userUuid, userUuid));
  return row?.balance ?? null;
}

/** The call of `token`'s bearer (nobody signed in without one) to start buying product `id`. */
export const startCheckout = (t: TestApp, token: string | undefined, id: string) =>
  t.api(token).payment.POST("/api/v1/products/{id}/checkout", { params: { path: { id } } });
