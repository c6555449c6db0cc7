import type { Schema } from "@booth/sdk";
import { data } from "@remix-run/node";
import { webConfig } from "../../config.server.ts";
import { offersAccount } from "../../lib/brand.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { takeNotice } from "../../lib/oauth.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";

export type Connection = Schema<"user", "Connection">;
const PROVIDERS = ["spotify", "youtube", "soundcloud", "apple", "discord"] as const;
type Provider = (typeof PROVIDERS)[number];
const isProvider = (p: string): p is Provider => PROVIDERS.includes(p as Provider);

/**
 * The person's connected accounts, and the outcome of a connection just made (once). With Apple Music configured,
 * also Booth's developer token, which MusicKit JS in the page is configured with to sign the person in (it is made
 * for browsers: Apple's own pages hand theirs out the same way); never a music user token.
 */
export async function loadConnections(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const booth = sdkFor(token);
  const [{ data: connections }, { notice, setCookie }] = await Promise.all([
    booth.user.GET("/connections"),
    takeNotice(request),
  ]);
  // Only the accounts this brand plays from (BOOTH_BRAND): the catalogue brand shows Discord's alone.
  const { brand } = webConfig();
  const offered = (connections ?? []).filter((c) => offersAccount(brand, c.provider));
  const apple = offered.find((c) => c.provider === "apple");
  // Unconfigured since the list was asked (503): no Connect button, as when the list says so.
  const appleDeveloperToken =
    apple && !apple.notConfigured
      ? await booth.user.GET("/apple/user-token/{id}", { params: { path: { id: viewer.uuid } } }).then(
          ({ data }) => data?.developerToken ?? null,
          (error) => (isApiError(error, 503) ? null : Promise.reject(error)),
        )
      : null;
  return data(
    { connections: offered, notice, appleDeveloperToken },
    setCookie ? { headers: { "set-cookie": setCookie } } : undefined,
  );
}

type Outcome = { ok: boolean; intent: "connect" | "disconnect"; provider: string; error: string | null };
const refused = (outcome: Omit<Outcome, "ok">, status = 400) => data({ ...outcome, ok: false } as Outcome, { status });

/**
 * Disconnecting any provider; connecting Apple Music with the music user token MusicKit gave the page (the edge
 * checks it with Apple before keeping it). The others connect at /connections/{provider}/start.
 */
export async function changeConnections(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  const provider = field(form, "provider");
  const intent = field(form, "intent");
  const booth = sdkFor(token);
  if (intent === "connect" && provider === "apple") {
    const musicUserToken = field(form, "musicUserToken").trim();
    if (!musicUserToken || musicUserToken.length > 4096)
      return refused({ intent, provider, error: "The music user token is missing or too long." });
    try {
      await booth.user.POST("/apple/user-token", { body: { musicUserToken } });
      return { ok: true, intent, provider, error: null } as Outcome;
    } catch (error) {
      return refused({ intent, provider, error: userMessage(error, request) });
    }
  }
  if (intent !== "disconnect" || !isProvider(provider))
    return refused({ intent: "disconnect", provider, error: "Unknown action." });
  try {
    await booth.user.DELETE("/connections/{provider}", { params: { path: { provider } } });
    return { ok: true, intent, provider, error: null } as Outcome;
  } catch (error) {
    return refused({ intent, provider, error: userMessage(error, request) });
  }
}
