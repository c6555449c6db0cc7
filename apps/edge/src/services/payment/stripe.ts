import Stripe from "stripe";
import type { PaymentConfig } from "../../deps.ts";
import { HttpError, unauthorized, unavailable } from "../../lib/errors.ts";

export const STRIPE_WEBHOOK_UNCONFIGURED = "The Stripe webhook is not configured: set STRIPE_WEBHOOK_SECRET.";
export const SIGNATURE_INVALID = "The webhook signature could not be verified.";
export const SIGNATURE_TOO_OLD = "The webhook is too old: its signed timestamp is outside the tolerance.";

// Stripe's fetch client and SubtleCrypto work the same on Node, Deno and Workers (no node:http, no node:crypto).
const cryptoProvider = Stripe.createSubtleCryptoProvider();
const clients = new WeakMap<PaymentConfig, Stripe>();

/** The Stripe client for this configuration, or null when no STRIPE_SECRET_KEY is set (the local checkout then). */
export function stripeClient(config: PaymentConfig | undefined): Stripe | null {
  if (!config?.stripeSecretKey) return null;
  const known = clients.get(config);
  if (known) return known;
  const options: ConstructorParameters<typeof Stripe>[1] = {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "booth" },
  };
  if (config.stripeApiUrl) {
    const url = new URL(config.stripeApiUrl);
    options.host = url.hostname;
    options.protocol = url.protocol === "http:" ? "http" : "https";
    options.port = Number(url.port || (url.protocol === "http:" ? 80 : 443));
  }
  const client = new Stripe(config.stripeSecretKey, options);
  clients.set(config, client);
  return client;
}

/** A failed call to Stripe: 502, with Stripe's own explanation when it gave one. */
export function providerFailure(err: unknown): HttpError {
  const message = err instanceof Error && err.message ? err.message : "no answer";
  return new HttpError(502, `The payment provider refused or did not answer: ${message}`);
}

/** A call to Stripe, its failure a 502 (`providerFailure`). */
export const askStripe = <T>(call: Promise<T>): Promise<T> =>
  call.catch((err) => {
    throw providerFailure(err);
  });

export interface VerifiedStripeEvent {
  id: string;
  type: string;
  /** Seconds since the epoch, as Stripe stamps it. */
  created: number;
  data: { object: Record<string, unknown> };
}

/**
 * Checks the `Stripe-Signature` header over the raw body with Stripe's own verification (its default tolerance, measured
 * against the app's clock) and answers the event; 401 when the signature does not match or is too old.
 */
export async function verifyStripeEvent(
  config: PaymentConfig | undefined,
  rawBody: string,
  signature: string,
  now: Date,
): Promise<VerifiedStripeEvent> {
  const secret = config?.stripeWebhookSecret;
  if (!secret) throw unavailable(STRIPE_WEBHOOK_UNCONFIGURED);
  try {
    const event = await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      secret,
      undefined,
      cryptoProvider,
      now.getTime(),
    );
    return event as unknown as VerifiedStripeEvent;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError)
      throw unauthorized(/tolerance/i.test(err.message) ? SIGNATURE_TOO_OLD : SIGNATURE_INVALID);
    // A body that verifies but is not JSON: Stripe never sends one.
    throw new HttpError(400, "The webhook body is not a Stripe event.");
  }
}
