import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Schema } from "@booth/sdk";
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { webConfig } from "../config.server.ts";
import { THIRD_PARTY_COOKIE } from "./discord-activity.server.ts";
import { sdkFor } from "./sdk.server.ts";
import { inActivity } from "./visitor.server.ts";

/** What the browser may know about the signed-in person (never the token). */
export interface Viewer {
  uuid: string;
  email: string | null;
  nickname: string;
  avatarId: string;
  color: string;
  verified: boolean;
  roles: string[];
}

export const AUDIO_QUALITIES = ["low", "medium", "high"] as const;
export type AudioQuality = (typeof AUDIO_QUALITIES)[number];

interface SessionData {
  token: string;
  expiresAt: string;
  viewer: Viewer;
  guestToken: string;
  guestExpiresAt: string;
  /** The signed-in viewer's live token (see `liveToken`), until when it lasts, and whose it is. */
  liveToken: string;
  liveExpiresAt: string;
  liveUser: string;
  audioQuality: AudioQuality;
  /** A connection or Discord sign-in under way (oauth.server.ts): its state, PKCE verifier and purpose. */
  oauth: {
    state: string;
    provider: string;
    purpose: "connect" | "signin";
    verifier: string;
    until: number;
    next: string;
  };
}

/** One-time notes shown on the next page (the outcome of a connection), read once. */
interface SessionFlash {
  notice: { kind: "ok" | "error"; key: string; provider: string; text: string };
}

let secret: string | undefined;
/** SESSION_SECRET, else (not in production) one generated once and kept in DATA_DIR, like the edge's signing key. */
function sessionSecret(): string {
  if (secret) return secret;
  const { settings, production, dataDir } = webConfig();
  if (settings.SESSION_SECRET) {
    secret = settings.SESSION_SECRET;
    return secret;
  }
  if (production) throw new Error("SESSION_SECRET is required in production.");
  const file = join(dataDir, "web-session-secret");
  if (existsSync(file)) {
    secret = readFileSync(file, "utf8").trim();
    return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

type Storage = ReturnType<typeof createCookieSessionStorage<SessionData, SessionFlash>>;
let storage: Storage | undefined;
let activityStorage: Storage | undefined;
/**
 * The session cookie: SameSite=Lax; in the Discord Activity (a third-party frame) SameSite=None, Secure and
 * Partitioned, or the browser would not send it (discord-activity.server.ts; the server refuses other sites' posts).
 */
function sessions() {
  const cookie = {
    name: "booth_session",
    httpOnly: true,
    sameSite: "lax" as "lax" | "none",
    path: "/",
    secure: webConfig().secureCookies,
    secrets: [sessionSecret()],
    maxAge: 30 * 24 * 3600,
  };
  if (inActivity()) {
    activityStorage ??= createCookieSessionStorage<SessionData, SessionFlash>({
      cookie: { ...cookie, ...THIRD_PARTY_COOKIE },
    });
    return activityStorage;
  }
  storage ??= createCookieSessionStorage<SessionData, SessionFlash>({ cookie });
  return storage;
}

export const getSession = (request: Request) => sessions().getSession(request.headers.get("cookie"));
export type Session = Awaited<ReturnType<typeof getSession>>;
export const commitSession = (session: Session) => sessions().commitSession(session);

type AuthResult = Schema<"user", "AuthResult">;

export function viewerOf(user: AuthResult["user"]): Viewer {
  return {
    uuid: user.uuid,
    email: user.email,
    nickname: user.profile?.nickname ?? "",
    avatarId: user.profile?.avatarId ?? "",
    color: user.profile?.color ?? "#8b5cf6",
    verified: Boolean(user.verifiedAt),
    roles: user.roles,
  };
}

const DAY = 24 * 3600 * 1000;

/** The live token kept in the session (see `liveToken`) goes: signed out, or someone else signed in. */
function forgetLiveToken(session: Session) {
  session.unset("liveToken");
  session.unset("liveExpiresAt");
  session.unset("liveUser");
}
/** A signed-in viewer's live token is handed out again while it lasts longer than this (the page renews at 3 minutes). */
const LIVE_TOKEN_KEPT_MS = 5 * 60_000;

/**
 * The session's viewer and token. The edge's user tokens last a week and slide: with less than a day left the
 * session trades the token for a fresh one (`GET /auth/session`), and a token the edge refuses ends the session.
 * `setCookie` is set when the session changed and must be committed with the response.
 */
export async function readSession(request: Request) {
  const session = await getSession(request);
  let token = session.get("token") ?? null;
  let viewer = session.get("viewer") ?? null;
  let changed = false;
  const expiresAt = Date.parse(session.get("expiresAt") ?? "");
  if (token && !(expiresAt > Date.now())) {
    token = null;
    viewer = null;
  } else if (token && expiresAt - Date.now() < DAY) {
    try {
      const { data } = await sdkFor(token).user.GET("/auth/session");
      if (data) {
        token = data.accessToken;
        viewer = viewerOf(data.user);
        session.set("token", data.accessToken);
        session.set("expiresAt", data.expiresAt);
        session.set("viewer", viewer);
        changed = true;
      }
    } catch {
      token = null;
      viewer = null;
    }
  }
  if (!token && session.has("token")) {
    session.unset("token");
    session.unset("viewer");
    session.unset("expiresAt");
    forgetLiveToken(session);
    session.set("audioQuality", "medium");
    changed = true;
  }
  const audioQuality: AudioQuality = token ? (session.get("audioQuality") ?? "medium") : "medium";
  return {
    session,
    token,
    viewer,
    audioQuality,
    setCookie: changed ? await commitSession(session) : null,
  };
}

/** The signed-in viewer and their token, or a redirect to the login page that comes back here. */
export async function requireViewer(request: Request) {
  const read = await readSession(request);
  if (!read.token || !read.viewer) {
    const url = new URL(request.url);
    throw redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return { ...read, token: read.token, viewer: read.viewer };
}

/** Starts a session from the edge's answer: the cookie to set. */
export async function startSession(request: Request, result: AuthResult, given?: Session) {
  const session = given ?? (await getSession(request));
  session.set("token", result.accessToken);
  session.set("expiresAt", result.expiresAt);
  session.set("viewer", viewerOf(result.user));
  session.unset("guestToken");
  session.unset("guestExpiresAt");
  // A live token kept for whoever was signed in before is not this person's.
  forgetLiveToken(session);
  return commitSession(session);
}

/** Starts a session from the edge's answer and redirects (to `next` when it is a path of ours). */
export async function signIn(request: Request, result: AuthResult, next?: string | null, given?: Session) {
  return redirect(safeNext(next), { headers: { "set-cookie": await startSession(request, result, given) } });
}

export async function refreshViewer(request: Request, token: string) {
  const session = await getSession(request);
  const { data } = await sdkFor(token).user.GET("/auth/session");
  if (!data) return null;
  session.set("token", data.accessToken);
  session.set("expiresAt", data.expiresAt);
  session.set("viewer", viewerOf(data.user));
  return commitSession(session);
}

export async function signOut(request: Request) {
  const session = await getSession(request);
  return redirect("/", { headers: { "set-cookie": await sessions().destroySession(session) } });
}

/** Only paths of this site: never an absolute or protocol-relative URL. */
export function safeNext(next: string | null | undefined) {
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/";
}

/**
 * The token the browser itself uses (the live socket, HLS keys, listening events): for the signed-in, a 15-minute
 * token from the edge (the session's own token never leaves the server); for visitors, a guest token (kept in the
 * session while it lasts), so guests can listen in public rooms. The page asks `/live-token` for fresh ones.
 */
export async function liveToken(request: Request) {
  const read = await readSession(request);
  const { session } = read;
  if (read.token) {
    // Kept in the session while it has over LIVE_TOKEN_KEPT_MS left (the page renews its own a few minutes before
    // the end): the room page loads its data again with every new song, and a token made each time used up the
    // edge's allowance (120 an hour per person) in an hour of 30-second songs, and the room became an error page.
    const kept = session.get("liveToken");
    const keptUntil = session.get("liveExpiresAt") ?? "";
    if (
      kept &&
      session.get("liveUser") === read.viewer?.uuid &&
      Date.parse(keptUntil) - Date.now() > LIVE_TOKEN_KEPT_MS
    )
      return { ...read, liveToken: kept, liveTokenExpiresAt: keptUntil, guest: false };
    const { data } = await sdkFor(read.token).user.POST("/auth/live-token");
    if (!data) throw new Error("no live token");
    session.set("liveToken", data.accessToken);
    session.set("liveExpiresAt", data.expiresAt);
    session.set("liveUser", read.viewer?.uuid ?? "");
    return {
      ...read,
      liveToken: data.accessToken,
      liveTokenExpiresAt: data.expiresAt,
      guest: false,
      setCookie: await commitSession(session),
    };
  }
  const kept = session.get("guestToken");
  const keptUntil = session.get("guestExpiresAt") ?? "";
  if (kept && Date.parse(keptUntil) - Date.now() > 3600_000)
    return { ...read, liveToken: kept, liveTokenExpiresAt: keptUntil, guest: true };
  const { data } = await sdkFor(null).user.GET("/auth/guest");
  if (!data) throw new Error("no guest token");
  session.set("guestToken", data.accessToken);
  session.set("guestExpiresAt", data.expiresAt);
  return {
    ...read,
    liveToken: data.accessToken,
    liveTokenExpiresAt: data.expiresAt,
    guest: true,
    setCookie: await commitSession(session),
  };
}
