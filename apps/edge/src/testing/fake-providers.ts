import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AppConfig, defaultConfig } from "../deps.ts";
import type { IntegrationsConfig } from "../ports/integrations.ts";
import { closeServer, listenLocally } from "./local-server.ts";

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

/**
 * A YouTube video resource as the Data API answers it (for `fake.youtubeVideos`): its id, title, channel and ISO 8601
 * duration.
 */
export function youtubeVideo(id: string, title: string, channelTitle = "Lumen - Topic", duration = "PT3M5S") {
  return {
    id,
    snippet: { title, channelTitle, publishedAt: "2023-01-02T00:00:00Z", thumbnails: {} },
    contentDetails: { duration },
  };
}

export interface DiscordFakeUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
  /** The guilds (servers) the user is in: their ids (`GET /users/@me/guilds`). */
  guilds?: string[];
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

/** Each provider's OAuth pages on the fake, by their prefix and path: its token endpoint and its authorize page. */
const OAUTH_PAGES: Record<string, { provider: OAuthProvider; page: "token" | "authorize" }> = {
  "discord/oauth2/token": { provider: "discord", page: "token" },
  "discord-web/oauth2/authorize": { provider: "discord", page: "authorize" },
  "spotify-accounts/api/token": { provider: "spotify", page: "token" },
  "spotify-accounts/authorize": { provider: "spotify", page: "authorize" },
  "google/token": { provider: "youtube", page: "token" },
  "google-accounts/o/oauth2/v2/auth": { provider: "youtube", page: "authorize" },
  "soundcloud/oauth/token": { provider: "soundcloud", page: "token" },
  "soundcloud/authorize": { provider: "soundcloud", page: "authorize" },
};

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
  /**
   * Playlists: Spotify's by id (the playlist's name and its items as /v1/playlists/{id}/tracks gives them: `{ track }`,
   * `{ track: null }` for a deleted one, `{ is_local: true, ... }`), YouTube's by id (its title and video ids: a video
   * not in `youtubeVideos` is a deleted or private one), SoundCloud's sets by path (user/sets/name: the set's id,
   * title and track resources).
   */
  const spotifyPlaylists = new Map<string, { name: string; items: Record<string, unknown>[] }>();
  const youtubePlaylists = new Map<string, { title: string; videoIds: string[] }>();
  const soundcloudPlaylists = new Map<string, { id: number; title: string; tracks: Record<string, unknown>[] }>();
  const chat = {
    users: new Map<string, { uid: string; name: string; avatar?: string }>(),
    groups: new Map<string, { guid: string; name: string; type: string; owner?: string }>(),
    members: new Map<string, Map<string, string>>(),
    banned: new Map<string, Set<string>>(),
    tokens: 0,
  };
  /**
   * The consent pages (GET {prefix}/authorize): who consents at each provider. The page checks Booth's client id and
   * redirects back to redirect_uri with a fresh code for that person and the client's state, as the providers do;
   * `deny` sends error=access_denied instead. Discord's person is a DiscordFakeUser.
   */
  const consent: {
    spotify: string;
    youtube: string;
    soundcloud: string;
    discord: DiscordFakeUser;
    deny: boolean;
  } = {
    spotify: "spotify-listener",
    youtube: "youtube-listener",
    soundcloud: "soundcloud-listener",
    discord: { id: "900000000000000001", username: "discord-listener", email: null, verified: false },
    deny: false,
  };
  /** Playlists made through the fake Web API (POST /v1/users/{id}/playlists), with the track URIs added to them. */
  const createdSpotifyPlaylists = new Map<
    string,
    { owner: string; name: string; description: string; public: boolean; uris: string[] }
  >();
  /** Requests whose path and query match one of these get its status (an outage part-way through paging). */
  const outages: { match: RegExp; status: number }[] = [];
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
      const { guilds: _, ...shown } = user;
      return send(res, 200, { ...shown, global_name: user.global_name ?? null, avatar: null });
    }
    if (path === "/users/@me/guilds") {
      const id = oauth.discord.accessTokens.get(token) ?? foreignDiscordTokens.get(token);
      const user = id ? discordUsers.get(id) : undefined;
      if (!user) return send(res, 401, { message: "401: Unauthorized", code: 0 });
      return send(
        res,
        200,
        (user.guilds ?? []).map((guild) => ({ id: guild, name: `Guild ${guild}`, owner: false, permissions: "0" })),
      );
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

  /** A provider's consent page: back to the redirect URI with a code for the person who consents, and the state. */
  function authorizePage(provider: OAuthProvider, url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const expected = FAKE_CREDENTIALS[provider].id;
    const redirectUri = q.get("redirect_uri") ?? "";
    if (q.get("client_id") !== expected || q.get("response_type") !== "code" || !/^https?:\/\//.test(redirectUri))
      return send(res, 400, { error: "invalid_request" });
    const back = new URL(redirectUri);
    if (consent.deny) back.searchParams.set("error", "access_denied");
    else if (provider === "discord") {
      discordUsers.set(consent.discord.id, consent.discord);
      const code = `discord-code-${crypto.randomUUID()}`;
      oauth.discord.codes.set(code, consent.discord.id);
      back.searchParams.set("code", code);
    } else {
      const code = `${provider}-code-${crypto.randomUUID()}`;
      oauth[provider].codes.set(code, consent[provider]);
      back.searchParams.set("code", code);
    }
    const state = q.get("state");
    if (state !== null) back.searchParams.set("state", state);
    res.statusCode = 302;
    res.setHeader("location", back.toString());
    res.end();
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
      const outage = outages.find((o) => o.match.test(url.pathname + url.search));
      if (outage) return send(res, outage.status, { error: "server_error" });
      const [, prefix, ...rest] = url.pathname.split("/");
      const path = `/${rest.join("/")}`;
      const method = req.method ?? "GET";
      const oauthPage = OAUTH_PAGES[`${prefix}${path}`];
      if (oauthPage?.page === "token") return tokenEndpoint(oauthPage.provider, req, res, form);
      if (oauthPage?.page === "authorize") return authorizePage(oauthPage.provider, url, res);
      switch (prefix) {
        case "discord":
          return discordApi(path, req, res);
        case "spotify-api":
          if (path === "/v1/me") {
            const subject = oauth.spotify.accessTokens.get(bearer(req) ?? "");
            if (!subject) return send(res, 401, { error: { status: 401, message: "Invalid access token" } });
            return send(res, 200, { id: subject, display_name: `Spotify ${subject}` });
          }
          {
            const owner = /^\/v1\/users\/([^/]+)\/playlists$/.exec(path)?.[1];
            if (owner && method === "POST") {
              const subject = oauth.spotify.accessTokens.get(bearer(req) ?? "");
              if (!subject) return send(res, 401, { error: { status: 401, message: "Invalid access token" } });
              if (decodeURIComponent(owner) !== subject)
                return send(res, 403, {
                  error: { status: 403, message: "You cannot create a playlist for another user" },
                });
              const b = (json ?? {}) as Record<string, unknown>;
              const id = `fakepl${String(createdSpotifyPlaylists.size + 1).padStart(16, "0")}`;
              createdSpotifyPlaylists.set(id, {
                owner: subject,
                name: String(b.name ?? ""),
                description: String(b.description ?? ""),
                public: b.public !== false,
                uris: [],
              });
              return send(res, 201, {
                id,
                name: b.name,
                external_urls: { spotify: `https://open.spotify.com/playlist/${id}` },
              });
            }
          }
          if (path.startsWith("/v1/playlists/")) {
            if (!oauth.spotify.accessTokens.has(bearer(req) ?? ""))
              return send(res, 401, { error: { status: 401, message: "Invalid access token" } });
            const [id = "", tracks] = path.slice("/v1/playlists/".length).split("/");
            const created = createdSpotifyPlaylists.get(decodeURIComponent(id));
            if (created && tracks === "tracks" && method === "POST") {
              const uris = ((json ?? {}) as { uris?: unknown }).uris;
              if (!Array.isArray(uris) || uris.length > 100)
                return send(res, 400, { error: { status: 400, message: "uris: 1 to 100 track URIs" } });
              created.uris.push(...uris.map(String));
              return send(res, 201, { snapshot_id: `snap-${created.uris.length}` });
            }
            const playlist = spotifyPlaylists.get(decodeURIComponent(id));
            if (!playlist) return send(res, 404, { error: { status: 404, message: "Resource not found" } });
            if (tracks !== "tracks")
              return send(res, 200, { id, name: playlist.name, tracks: { total: playlist.items.length } });
            const offset = Number(url.searchParams.get("offset") ?? 0);
            const limit = Math.min(Number(url.searchParams.get("limit") ?? 100), 100);
            const items = playlist.items.slice(offset, offset + limit);
            const more = offset + limit < playlist.items.length;
            return send(res, 200, {
              items,
              offset,
              limit,
              total: playlist.items.length,
              next: more ? `${base}/spotify-api${path}?offset=${offset + limit}&limit=${limit}` : null,
            });
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
          if (
            path === "/playlists" ||
            path === "/playlistItems" ||
            (path === "/videos" && url.searchParams.has("id"))
          ) {
            if (url.searchParams.get("key") !== FAKE_CREDENTIALS.youtubeApiKey)
              return send(res, 400, { error: { code: 400, errors: [{ reason: "keyInvalid" }] } });
          }
          if (path === "/playlists") {
            const id = url.searchParams.get("id") ?? "";
            const playlist = youtubePlaylists.get(id);
            return send(res, 200, {
              kind: "youtube#playlistListResponse",
              items: playlist
                ? [{ id, snippet: { title: playlist.title }, contentDetails: { itemCount: playlist.videoIds.length } }]
                : [],
            });
          }
          if (path === "/playlistItems") {
            const playlist = youtubePlaylists.get(url.searchParams.get("playlistId") ?? "");
            if (!playlist) return send(res, 404, { error: { code: 404, errors: [{ reason: "playlistNotFound" }] } });
            const max = Math.min(Number(url.searchParams.get("maxResults") ?? 5), 50);
            const start = Number(url.searchParams.get("pageToken")?.replace("page-", "") ?? 0);
            const ids = playlist.videoIds.slice(start, start + max);
            return send(res, 200, {
              kind: "youtube#playlistItemListResponse",
              items: ids.map((videoId) => ({
                contentDetails: { videoId },
                status: { privacyStatus: youtubeVideos.has(videoId) ? "public" : "private" },
              })),
              ...(start + max < playlist.videoIds.length ? { nextPageToken: `page-${start + max}` } : {}),
              pageInfo: { totalResults: playlist.videoIds.length, resultsPerPage: max },
            });
          }
          if (path === "/videos" && (url.searchParams.get("id") ?? "").includes(",")) {
            const ids = (url.searchParams.get("id") ?? "").split(",");
            if (ids.length > 50) return send(res, 400, { error: { code: 400, errors: [{ reason: "tooManyIds" }] } });
            const items = ids.flatMap((id) => youtubeVideos.get(id) ?? []);
            return send(res, 200, { kind: "youtube#videoListResponse", items });
          }
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
          const setTracks = /^\/playlists\/(\d+)\/tracks$/.exec(path)?.[1];
          if (setTracks) {
            const set = [...soundcloudPlaylists.values()].find((p) => String(p.id) === setTracks);
            if (!set) return send(res, 404, { code: 404, message: "404 - Not Found" });
            const limit = Math.min(Number(url.searchParams.get("limit") ?? 50), 200);
            const cursor = Number(url.searchParams.get("cursor") ?? 0);
            const page = set.tracks.slice(cursor, cursor + limit);
            const more = cursor + limit < set.tracks.length;
            return send(res, 200, {
              collection: page.map((t) => ({ kind: "track", ...t })),
              next_href: more
                ? `${base}/soundcloud-api${path}?linked_partitioning=true&limit=${limit}&cursor=${cursor + limit}`
                : null,
            });
          }
          const setPath = path === "/resolve" ? new URL(url.searchParams.get("url") ?? "", "https://x").pathname : "";
          const set = soundcloudPlaylists.get(setPath.replace(/^\//, ""));
          if (set)
            return send(res, 200, {
              kind: "playlist",
              id: set.id,
              title: set.title,
              track_count: set.tracks.length,
              permalink_url: `https://soundcloud.com${setPath}`,
            });
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
  const base = await listenLocally(server);

  const integrations: IntegrationsConfig = {
    discordClientId: FAKE_CREDENTIALS.discord.id,
    discordClientSecret: FAKE_CREDENTIALS.discord.secret,
    discordApiUrl: `${base}/discord`,
    discordAuthorizeUrl: `${base}/discord-web/oauth2/authorize`,
    spotifyClientId: FAKE_CREDENTIALS.spotify.id,
    spotifyClientSecret: FAKE_CREDENTIALS.spotify.secret,
    spotifyAccountsUrl: `${base}/spotify-accounts`,
    youtubeClientId: FAKE_CREDENTIALS.youtube.id,
    youtubeClientSecret: FAKE_CREDENTIALS.youtube.secret,
    youtubeOAuthUrl: `${base}/google`,
    youtubeAuthorizeUrl: `${base}/google-accounts/o/oauth2/v2/auth`,
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
    consent,
    createdSpotifyPlaylists,
    foreignDiscordTokens,
    appleUserTokens,
    spotifyTracks,
    appleSongs,
    youtubeVideos,
    soundcloudTracks,
    spotifyPlaylists,
    youtubePlaylists,
    soundcloudPlaylists,
    outages,
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
    close: () => closeServer(server),
  };
}

export type FakeProviders = Awaited<ReturnType<typeof startFakeProviders>>;
