import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { redirect } from "@remix-run/node";
import { webConfig } from "../config.server.ts";
import { userMessage } from "./errors.server.ts";
import { sdkFor } from "./sdk.server.ts";
import { commitSession, getSession, readSession, type Session, safeNext, signIn } from "./session.server.ts";

/**
 * Connecting an account at a provider, and signing in with Discord (docs/decisions/0016). The web server makes a
 * random state and PKCE verifier, keeps them in the person's signed session cookie (never in the page), and sends the
 * person to the consent page the edge builds with Booth's client id. The provider sends them back to
 * /connections/{provider}/callback with ?code=&state=: the state must be the one in this browser's session, for
 * this provider, within 10 minutes, and it is spent at the first try. Only then is the code exchanged through the
 * edge, which keeps the tokens; the browser never sees a token.
 */

export const OAUTH_PROVIDERS = ["spotify", "youtube", "soundcloud", "discord"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
export const isOAuthProvider = (p: unknown): p is OAuthProvider => OAUTH_PROVIDERS.includes(p as OAuthProvider);

const STATE_MS = 10 * 60_000;
const CONNECTIONS = "/profile/connections";

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** Where providers send people back: this site's public address (WEB_URL), else the address the request came to. */
function callbackUrl(request: Request, provider: OAuthProvider) {
  const origin = webConfig().settings.WEB_URL ?? new URL(request.url).origin;
  return `${origin}/connections/${provider}/callback`;
}

/** What the next page says: a text of the screen's (`key`), or the edge's own message (`failed`, with `text`). */
export type NoticeKey = "connected" | "forged" | "declined" | "failed" | "signinOnlyDiscord";

async function withNotice(session: Session, to: string, key: NoticeKey, provider: string, text = "") {
  session.flash("notice", { kind: key === "connected" ? "ok" : "error", key, provider, text });
  return redirect(to, { headers: { "set-cookie": await commitSession(session) } });
}

/** Sends the person to the provider's consent page (connect: signed in; signin: Discord only). */
export async function startOAuth(request: Request, provider: OAuthProvider, purpose: "connect" | "signin") {
  const read = await readSession(request);
  const { session } = read;
  const back = purpose === "signin" ? "/login" : CONNECTIONS;
  if (purpose === "connect" && !read.token) throw redirect(`/login?next=${encodeURIComponent(CONNECTIONS)}`);
  if (purpose === "signin" && provider !== "discord") return withNotice(session, back, "signinOnlyDiscord", provider);
  const state = base64url(randomBytes(32));
  const verifier = base64url(randomBytes(48));
  const challenge = base64url(createHash("sha256").update(verifier).digest());
  const next = purpose === "signin" ? safeNext(new URL(request.url).searchParams.get("next")) : CONNECTIONS;
  try {
    const { data } = await sdkFor(read.token).user.POST("/connections/{provider}/authorize-url", {
      params: { path: { provider } },
      body: {
        redirectUri: callbackUrl(request, provider),
        state,
        // Discord takes no PKCE from a confidential client; the others check it at the exchange.
        ...(provider === "discord" ? {} : { codeChallenge: challenge }),
      },
    });
    if (!data) throw new Error("no authorize URL");
    session.set("oauth", { state, provider, purpose, verifier, until: Date.now() + STATE_MS, next });
    return redirect(data.url, { headers: { "set-cookie": await commitSession(session) } });
  } catch (error) {
    return withNotice(session, back, "failed", provider, userMessage(error, request));
  }
}

const sameState = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The provider's answer: checks the state, spends it, exchanges the code through the edge. */
export async function finishOAuth(request: Request, provider: OAuthProvider) {
  const read = await readSession(request);
  const { session } = read;
  const started = session.get("oauth");
  session.unset("oauth");
  const url = new URL(request.url);
  const state = url.searchParams.get("state") ?? "";
  const code = url.searchParams.get("code") ?? "";
  const purpose = started?.purpose ?? (read.token ? "connect" : "signin");
  const back = purpose === "signin" ? "/login" : CONNECTIONS;
  if (
    !started ||
    started.provider !== provider ||
    started.until < Date.now() ||
    !state ||
    !sameState(state, started.state)
  )
    return withNotice(session, back, "forged", provider);
  if (url.searchParams.get("error") || !code || code.length > 2048)
    return withNotice(session, back, "declined", provider);
  const redirectUri = callbackUrl(request, provider);
  try {
    if (started.purpose === "signin") {
      const { data } = await sdkFor(null).user.POST("/auth/discord-auth", { body: { code, redirectUri } });
      if (!data) throw new Error("no answer");
      return signIn(request, data, started.next, session);
    }
    if (!read.token) throw redirect(`/login?next=${encodeURIComponent(CONNECTIONS)}`);
    const booth = sdkFor(read.token);
    const exchange = { code, redirectUri, codeVerifier: started.verifier };
    if (provider === "spotify") await booth.user.POST("/spotify/exchange-code", { body: exchange });
    else if (provider === "youtube") await booth.user.POST("/youtube/exchange-code", { body: exchange });
    else if (provider === "soundcloud") await booth.user.POST("/soundcloud/refresh-token", { body: exchange });
    else await booth.user.POST("/auth/link-discord", { body: { code, redirectUri } });
    return withNotice(session, CONNECTIONS, "connected", provider);
  } catch (error) {
    if (error instanceof Response) throw error;
    return withNotice(session, back, "failed", provider, userMessage(error, request));
  }
}

/** Reads (and spends) the one-time notice; the cookie to send back when there was one. */
export async function takeNotice(request: Request) {
  const session = await getSession(request);
  const notice = session.get("notice") ?? null;
  return { notice, setCookie: notice ? await commitSession(session) : null };
}
