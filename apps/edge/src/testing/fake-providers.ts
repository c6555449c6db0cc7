import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AppConfig, defaultConfig } from "../deps.ts";
import type { IntegrationsConfig } from "../ports/integrations.ts";

/**
 * For tests: one local HTTP server standing in for Discord, Spotify's accounts service and Web API, Google OAuth,
 * SoundCloud, Apple Music and CometChat, each under a path prefix. It answers like them (the subset Booth calls),
 * checks Booth's credentials, and records every request.
 */

export const FAKE_CREDENTIALS = {
  discord: { id: "discord-client", secret: "discord-secret" },
  spotify: { id: "spotify-client", secret: "spotify-secret" },
  youtube: { id: "youtube-client", secret: "youtube-secret" },
  soundcloud: { id: "soundcloud-client", secret: "soundcloud-secret" },
  soundcloudMobile: { id: "soundcloud-mobile", secret: "soundcloud-mobile-secret" },
  cometchat: { appId: "app123", apiKey: "rest-key" },
  appleDeveloperToken: "apple-dev-token",
  youtubeApiKey: "youtube-api-key",
  // Agora's own sample credentials (32 hexadecimal characters each).
  agora: { appId: "970CA35de60c44645bbae8a215061b33", certificate: "5CFd2fd1755d40ecb72977518be15d3b" },
} as const;

export interface DiscordFakeUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  form: Record<string, string>;
  json: unknown;
}

type OAuthProvider = "discord" | "spotify" | "youtube" | "soundcloud";

interface OAuthState {
  /** code -> what the exchange grants (a Discord user id for Discord). */
  codes: Map<string, string>;
  /** refresh token -> subject; a refresh rotates it when `rotate` is on. */
  refreshTokens: Map<string, string>;
  accessTokens: Map<string, string>;
  rotate: boolean;
  counter: number;
}

export async function startFakeProviders() {
  const requests: RecordedRequest[] = [];
  const oauth: Record<OAuthProvider, OAuthState> = {
    discord: { codes: new Map(), refreshTokens: new Map(), accessTokens: new Map(), rotate: false, counter: 0 },
    spotify: { codes: new Map(), refreshTokens: new Map(), accessTokens: new Map(), rotate: false, counter: 0 },
    youtube: { codes: new Map(), refreshTokens: new Map(), accessTokens: new Map(), rotate: false, counter: 0 },
    soundcloud: { codes: new Map(), refreshTokens: new Map(), accessTokens: new Map(), rotate: true, counter: 0 },
  };
  const discordUsers = new Map<string, DiscordFakeUser>();
  /** Discord access tokens issued to another application (token substitution attempts). */
  const foreignDiscordTokens = new Map<string, string>();
  const appleUserTokens = new Map<string, string>();
  /** Catalogue tracks the fake Web API and Apple Music catalogue answer, by id (their JSON as the providers send it). */
  const spotifyTracks = new Map<string, Record<string, unknown>>();
  const appleSongs = new Map<string, Record<string, unknown>>();
  /** YouTube videos (id -> the video resource) and SoundCloud tracks (permalink path -> the track resource). */
  const youtubeVideos = new Map<string, Record<string, unknown>>();
  const soundcloudTracks = new Map<string, Record<string, unknown>>();
  const chat = {
    users: new Map<string, { uid: string; name: string; avatar?: string }>(),
    groups: new Map<string, { guid: string; name: string; type: string; owner?: string }>(),
    members: new Map<string, Map<string, string>>(),
    banned: new Map<string, Set<string>>(),
    tokens: 0,
  };
  /** When set, every answer is this status (a provider outage). */
  const control: { failWith: number | null; delayMs: number } = { failWith: null, delayMs: 0 };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  };
  const basic = (req: IncomingMessage) => {
    const m = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
    if (!m?.[1]) return null;
    const [id, secret] = Buffer.from(m[1], "base64").toString().split(":");
    return { id, secret };
  };
  const bearer = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;

  function tokenEndpoint(
    provider: OAuthProvider,
    req: IncomingMessage,
    res: ServerResponse,
    form: Record<string, string>,
  ) {
    const creds = basic(req);
    const expected = FAKE_CREDENTIALS[provider];
    const mobile = provider === "soundcloud" && creds?.id === FAKE_CREDENTIALS.soundcloudMobile.id;
    const want = mobile ? FAKE_CREDENTIALS.soundcloudMobile : expected;
    if (!creds || creds.id !== want.id || creds.secret !== want.secret)
      return send(res, 401, { error: "invalid_client" });
    const state = oauth[provider];
    const issue = (subject: string, withRefresh: boolean) => {
      state.counter++;
      const access = `${provider}-access-${state.counter}`;
      state.accessTokens.set(access, subject);
      const out: Record<string, unknown> = {
        access_token: access,
        token_type: "Bearer",
        expires_in: 3600,
        scope: provider === "spotify" ? "user-read-email playlist-modify-private" : "basic",
      };
      if (withRefresh) {
        const refresh = `${provider}-refresh-${state.counter}`;
        state.refreshTokens.set(refresh, subject);
        out.refresh_token = refresh;
      }
      return out;
    };
    if (form.grant_type === "authorization_code") {
      const subject = state.codes.get(form.code ?? "");
      if (!subject) return send(res, 400, { error: "invalid_grant", error_description: "Invalid code" });
      state.codes.delete(form.code ?? "");
      return send(res, 200, issue(subject, true));
    }
    if (form.grant_type === "refresh_token") {
      const subject = state.refreshTokens.get(form.refresh_token ?? "");
      if (!subject) return send(res, 400, { error: "invalid_grant", error_description: "Invalid refresh token" });
      if (state.rotate) state.refreshTokens.delete(form.refresh_token ?? "");
      return send(res, 200, issue(subject, state.rotate));
    }
    if (form.grant_type === "client_credentials") return send(res, 200, issue(`app:${creds.id}`, false));
    return send(res, 400, { error: "unsupported_grant_type" });
  }

  function discordApi(path: string, req: IncomingMessage, res: ServerResponse) {
    const token = bearer(req) ?? "";
    if (path === "/oauth2/@me") {
      const foreign = foreignDiscordTokens.get(token);
      const own = oauth.discord.accessTokens.get(token);
      if (!foreign && !own) return send(res, 401, { message: "401: Unauthorized", code: 0 });
      const user = discordUsers.get(foreign ?? own ?? "");
      return send(res, 200, {
        application: { id: foreign ? "someone-elses-app" : FAKE_CREDENTIALS.discord.id },
        scopes: ["identify", "email"],
        user: user ? { id: user.id, username: user.username } : undefined,
      });
    }
    if (path === "/users/@me") {
      const id = oauth.discord.accessTokens.get(token) ?? foreignDiscordTokens.get(token);
      const user = id ? discordUsers.get(id) : undefined;
      if (!user) return send(res, 401, { message: "401: Unauthorized", code: 0 });
      return send(res, 200, { ...user, global_name: user.global_name ?? null, avatar: null });
    }
    return send(res, 404, { message: "404: Not Found" });
  }

  function cometchat(method: string, path: string, req: IncomingMessage, res: ServerResponse, json: unknown) {
    if (req.headers.apikey !== FAKE_CREDENTIALS.cometchat.apiKey)
      return send(res, 401, { error: { code: "AUTH_ERR_APIKEY_NOT_FOUND", message: "bad key" } });
    const body = (json ?? {}) as Record<string, unknown>;
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    const err = (status: number, code: string) => send(res, status, { error: { code, message: code } });
    if (method === "POST" && path === "/users") {
      const uid = String(body.uid).toLowerCase();
      if (chat.users.has(uid)) return err(400, "ERR_UID_ALREADY_EXISTS");
      chat.users.set(uid, { uid, name: String(body.name), ...(body.avatar ? { avatar: String(body.avatar) } : {}) });
      return send(res, 200, { data: chat.users.get(uid) });
    }
    if (method === "POST" && parts[0] === "users" && parts[2] === "auth_tokens") {
      const uid = parts[1] ?? "";
      if (!chat.users.has(uid)) return err(404, "ERR_UID_NOT_FOUND");
      chat.tokens++;
      return send(res, 200, { data: { uid, authToken: `${uid}_token${chat.tokens}`, createdAt: 1 } });
    }
    if (method === "POST" && path === "/groups") {
      const guid = String(body.guid);
      if (chat.groups.has(guid)) return err(400, "ERR_GUID_ALREADY_EXISTS");
      chat.groups.set(guid, {
        guid,
        name: String(body.name),
        type: String(body.type),
        ...(body.owner ? { owner: String(body.owner) } : {}),
      });
      chat.members.set(guid, new Map(body.owner ? [[String(body.owner), "admin"]] : []));
      chat.banned.set(guid, new Set());
      return send(res, 200, { data: chat.groups.get(guid) });
    }
    if (parts[0] === "groups" && parts[1]) {
      const guid = parts[1];
      const members = chat.members.get(guid);
      const banned = chat.banned.get(guid);
      if (!members || !banned) return err(404, "ERR_GUID_NOT_FOUND");
      if (parts[2] === "members" && !parts[3] && method === "POST") {
        const data: Record<string, Record<string, unknown>> = {};
        const scopes = { admins: "admin", moderators: "moderator", participants: "participant", usersToBan: "ban" };
        let total = 0;
        for (const [key, scope] of Object.entries(scopes)) {
          const uids = (body[key] as string[] | undefined) ?? [];
          total += uids.length;
          for (const uid of uids) {
            data[key] ??= {};
            const entry = data[key];
            if (!chat.users.has(uid)) entry[uid] = { success: false, error: { code: "ERR_UID_NOT_FOUND" } };
            else if (scope === "ban") {
              banned.add(uid);
              members.delete(uid);
              entry[uid] = { success: true };
            } else if (banned.has(uid)) entry[uid] = { success: false, error: { code: "ERR_BANNED_GROUPMEMBER" } };
            else if (members.has(uid)) entry[uid] = { success: false, error: { code: "ERR_ALREADY_JOINED" } };
            else {
              members.set(uid, scope);
              entry[uid] = { success: true };
            }
          }
        }
        if (total > 25) return err(400, "ERR_TOO_MANY_MEMBERS");
        return send(res, 200, { data });
      }
      if (parts[2] === "members" && !parts[3] && method === "GET") {
        const query = new URL(req.url ?? "", "http://fake").searchParams;
        const perPage = Number(query.get("perPage") ?? 100);
        const page = Number(query.get("page") ?? 1);
        const all = [...members].map(([uid, scope]) => ({ uid, scope }));
        return send(res, 200, {
          data: all.slice((page - 1) * perPage, page * perPage),
          meta: { pagination: { total: all.length, total_pages: Math.max(1, Math.ceil(all.length / perPage)) } },
        });
      }
      if (parts[2] === "members" && parts[3]) {
        const uid = parts[3];
        if (!members.has(uid)) return err(404, "ERR_NOT_A_MEMBER");
        if (method === "PUT") {
          members.set(uid, String(body.scope));
          return send(res, 200, { data: { success: true } });
        }
        if (method === "DELETE") {
          members.delete(uid);
          return send(res, 200, { data: { success: true } });
        }
      }
      if (parts[2] === "bannedusers" && !parts[3] && method === "GET")
        return send(res, 200, {
          data: [...banned].map((uid) => ({ uid })),
          meta: { pagination: { total: banned.size, total_pages: 1 } },
        });
      if (parts[2] === "bannedusers" && parts[3] && method === "DELETE") {
        banned.delete(parts[3]);
        return send(res, 200, { data: { success: true } });
      }
    }
    return err(404, "ERR_NOT_FOUND");
  }

  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => {
      raw += d;
    });
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const form = Object.fromEntries(new URLSearchParams(raw));
      let json: unknown = null;
      try {
        json = raw ? JSON.parse(raw) : null;
      } catch {
        json = null;
      }
      requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, body: raw, form, json });
      if (control.delayMs) await new Promise((r) => setTimeout(r, control.delayMs));
      if (control.failWith) return send(res, control.failWith, { error: "server_error" });
      const [, prefix, ...rest] = url.pathname.split("/");
      const path = `/${rest.join("/")}`;
      const method = req.method ?? "GET";
      switch (prefix) {
        case "discord":
          if (path === "/oauth2/token") return tokenEndpoint("discord", req, res, form);
          return discordApi(path, req, res);
        case "spotify-accounts":
          if (path === "/api/token") return tokenEndpoint("spotify", req, res, form);
          break;
        case "spotify-api":
          if (path === "/v1/me") {
            const subject = oauth.spotify.accessTokens.get(bearer(req) ?? "");
            if (!subject) return send(res, 401, { error: { status: 401, message: "Invalid access token" } });
            return send(res, 200, { id: subject, display_name: `Spotify ${subject}` });
          }
          if (path.startsWith("/v1/tracks/")) {
            if (!oauth.spotify.accessTokens.has(bearer(req) ?? ""))
              return send(res, 401, { error: { status: 401, message: "Invalid access token" } });
            const id = decodeURIComponent(path.slice("/v1/tracks/".length));
            if (!/^[A-Za-z0-9]{22}$/.test(id)) return send(res, 400, { error: { status: 400, message: "invalid id" } });
            const track = spotifyTracks.get(id);
            if (!track) return send(res, 404, { error: { status: 404, message: "Resource not found" } });
            return send(res, 200, { id, type: "track", ...track });
          }
          break;
        case "google":
          if (path === "/token") return tokenEndpoint("youtube", req, res, form);
          break;
        case "soundcloud":
          if (path === "/oauth/token") return tokenEndpoint("soundcloud", req, res, form);
          break;
        case "apple":
          if (path === "/v1/me/storefront") {
            if (bearer(req) !== FAKE_CREDENTIALS.appleDeveloperToken) return send(res, 401, { errors: [] });
            const storefront = appleUserTokens.get(String(req.headers["music-user-token"] ?? ""));
            if (!storefront) return send(res, 403, { errors: [{ status: "403", title: "Forbidden" }] });
            return send(res, 200, { data: [{ id: storefront, type: "storefronts" }] });
          }
          {
            const song = /^\/v1\/catalog\/([a-z]{2})\/songs\/([^/]+)$/.exec(path);
            if (song) {
              if (bearer(req) !== FAKE_CREDENTIALS.appleDeveloperToken) return send(res, 401, { errors: [] });
              const attributes = appleSongs.get(decodeURIComponent(song[2] ?? ""));
              if (!attributes) return send(res, 404, { errors: [{ status: "404", title: "Resource Not Found" }] });
              return send(res, 200, { data: [{ id: song[2], type: "songs", attributes }] });
            }
          }
          break;
        case "youtube-api":
          if (path === "/videos") {
            if (url.searchParams.get("key") !== FAKE_CREDENTIALS.youtubeApiKey)
              return send(res, 400, { error: { code: 400, errors: [{ reason: "keyInvalid" }] } });
            const video = youtubeVideos.get(url.searchParams.get("id") ?? "");
            return send(res, 200, { kind: "youtube#videoListResponse", items: video ? [video] : [] });
          }
          break;
        case "soundcloud-api": {
          if (!oauth.soundcloud.accessTokens.has(/^OAuth (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? ""))
            return send(res, 401, { code: 401, message: "Unauthorized" });
          const byId = /^\/tracks\/(\d+)$/.exec(path)?.[1];
          const resolved =
            path === "/resolve" ? new URL(url.searchParams.get("url") ?? "", "https://x").pathname : null;
          const track = byId
            ? [...soundcloudTracks.values()].find((t) => String(t.id) === byId)
            : resolved
              ? soundcloudTracks.get(resolved.replace(/^\//, ""))
              : undefined;
          if (!track) return send(res, 404, { code: 404, message: "404 - Not Found" });
          return send(res, 200, { kind: "track", ...track });
        }
        case "cometchat":
          return cometchat(method, path, req, res, json);
      }
      send(res, 404, { error: "not_found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const integrations: IntegrationsConfig = {
    discordClientId: FAKE_CREDENTIALS.discord.id,
    discordClientSecret: FAKE_CREDENTIALS.discord.secret,
    discordApiUrl: `${base}/discord`,
    spotifyClientId: FAKE_CREDENTIALS.spotify.id,
    spotifyClientSecret: FAKE_CREDENTIALS.spotify.secret,
    spotifyAccountsUrl: `${base}/spotify-accounts`,
    youtubeClientId: FAKE_CREDENTIALS.youtube.id,
    youtubeClientSecret: FAKE_CREDENTIALS.youtube.secret,
    youtubeOAuthUrl: `${base}/google`,
    soundcloudClientId: FAKE_CREDENTIALS.soundcloud.id,
    soundcloudClientSecret: FAKE_CREDENTIALS.soundcloud.secret,
    soundcloudMobileClientId: FAKE_CREDENTIALS.soundcloudMobile.id,
    soundcloudMobileClientSecret: FAKE_CREDENTIALS.soundcloudMobile.secret,
    soundcloudAuthUrl: `${base}/soundcloud`,
    soundcloudApiUrl: `${base}/soundcloud-api`,
    youtubeApiKey: FAKE_CREDENTIALS.youtubeApiKey,
    youtubeApiUrl: `${base}/youtube-api`,
    agoraAppId: FAKE_CREDENTIALS.agora.appId,
    agoraAppCertificate: FAKE_CREDENTIALS.agora.certificate,
    cometchatAppId: FAKE_CREDENTIALS.cometchat.appId,
    cometchatApiKey: FAKE_CREDENTIALS.cometchat.apiKey,
    cometchatBaseUrl: `${base}/cometchat`,
  };

  const providers = {
    spotifyApiUrl: `${base}/spotify-api`,
    appleMusicApiUrl: `${base}/apple`,
    appleMusicDeveloperToken: FAKE_CREDENTIALS.appleDeveloperToken,
  };
  /** An app configuration whose providers are all this fake: `createTestApp({ config: fake.config })`. */
  const config: AppConfig = {
    ...defaultConfig,
    providers: { ...defaultConfig.providers, ...providers },
    integrations,
  };

  return {
    base,
    integrations,
    providers,
    config,
    requests,
    oauth,
    discordUsers,
    foreignDiscordTokens,
    appleUserTokens,
    spotifyTracks,
    appleSongs,
    youtubeVideos,
    soundcloudTracks,
    chat,
    control,
    /** A Discord user who will consent: the code Booth receives for them. */
    discordCode(user: DiscordFakeUser) {
      discordUsers.set(user.id, user);
      const code = `discord-code-${crypto.randomUUID()}`;
      oauth.discord.codes.set(code, user.id);
      return code;
    },
    code(provider: Exclude<OAuthProvider, "discord">, subject: string) {
      const code = `${provider}-code-${crypto.randomUUID()}`;
      oauth[provider].codes.set(code, subject);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeProviders = Awaited<ReturnType<typeof startFakeProviders>>;
