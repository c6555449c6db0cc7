import { HttpError } from "../lib/errors.ts";
import { DEFAULT_GHOST_UID, type IntegrationsConfig, requireSettings, trimSlash } from "./integrations.ts";
import { answered, fetchProvider } from "./provider-post.ts";

/** A member's standing in a CometChat group. */
export type GroupScope = "admin" | "moderator" | "participant";

export interface ChatUser {
  uid: string;
  name: string;
  avatar?: string | null | undefined;
}

export interface MemberResult {
  uid: string;
  ok: boolean;
  /** CometChat's error code when the member was not added (ERR_ALREADY_JOINED...). */
  code: string | null;
}

/**
 * Room chat through CometChat's REST API (v3): users, their auth tokens, and one group per room whose members and
 * scopes follow the room's roles. Booth's user uuid is the CometChat uid; the room's uuid is the group's guid.
 */
export interface CometChat {
  readonly appId: string;
  readonly region: string | null;
  readonly ghostUid: string;
  /** Creates the user unless it exists; tells which. */
  ensureUser(user: ChatUser): Promise<"created" | "existing">;
  createAuthToken(uid: string): Promise<string>;
  ensureGroup(group: { guid: string; name: string; type: "public" | "private"; owner?: string }): Promise<void>;
  /** Adds members by scope (and bans), 25 per call as CometChat allows; one result per uid. */
  addMembers(guid: string, members: Partial<Record<GroupScope | "banned", string[]>>): Promise<MemberResult[]>;
  setScope(guid: string, uid: string, scope: GroupScope): Promise<void>;
  kick(guid: string, uid: string): Promise<void>;
  unban(guid: string, uid: string): Promise<void>;
  listMembers(guid: string): Promise<{ uid: string; scope: string }[]>;
  listBanned(guid: string): Promise<string[]>;
}

const TIMEOUT_MS = 15_000;
const PAGE = 100;
/** CometChat accepts at most 25 users per add-members call, across all scopes. */
const ADD_BATCH = 25;

class CometChatError extends HttpError {
  constructor(
    status: 502 | 503,
    message: string,
    readonly cometCode: string | null,
  ) {
    super(status, message);
  }
}

/** The CometChat adapter, or a 503 naming the missing settings. */
export function cometChatFrom(config: IntegrationsConfig | undefined): CometChat {
  const c = config ?? {};
  const { COMETCHAT_APP_ID: appId, COMETCHAT_API_KEY: apiKey } = requireSettings("CometChat", {
    COMETCHAT_APP_ID: c.cometchatAppId,
    COMETCHAT_API_KEY: c.cometchatApiKey,
  });
  if (!c.cometchatRegion && !c.cometchatBaseUrl)
    throw new HttpError(503, "CometChat is not configured: set COMETCHAT_REGION (or COMETCHAT_BASE_URL).");
  const base = trimSlash(c.cometchatBaseUrl || `https://${appId}.api-${c.cometchatRegion}.cometchat.io/v3`);
  return cometChatClient({ appId, apiKey, base, region: c.cometchatRegion ?? null, ghostUid: c.cometchatGhostUid });
}

export function cometChatClient(options: {
  appId: string;
  apiKey: string;
  base: string;
  region: string | null;
  ghostUid?: string | undefined;
}): CometChat {
  const { appId, apiKey, base } = options;

  async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await fetchProvider(
      `${base}${path}`,
      {
        method,
        headers: { apikey: apiKey, appid: appId, accept: "application/json", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      { timeoutMs: TIMEOUT_MS, unreachable: () => new CometChatError(502, "CometChat could not be reached.", null) },
    );
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.ok) return json;
    const error = (json.error ?? {}) as { code?: unknown; message?: unknown };
    const code = typeof error.code === "string" ? error.code : null;
    if (res.status === 401 || res.status === 403)
      throw new CometChatError(502, "CometChat refused Booth's API key.", code);
    if (res.status === 429)
      throw new CometChatError(503, "CometChat is limiting requests, please try again later.", code);
    throw new CometChatError(502, `${answered("CometChat", res.status, { aside: code })}.`, code);
  }

  const tolerating = async (codes: RegExp, run: () => Promise<unknown>) => {
    try {
      await run();
      return true;
    } catch (err) {
      if (err instanceof CometChatError && err.cometCode && codes.test(err.cometCode)) return false;
      throw err;
    }
  };

  async function pages<T>(path: string, pick: (item: Record<string, unknown>) => T | null): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; page <= 1000; page++) {
      const json = await call("GET", `${path}${path.includes("?") ? "&" : "?"}perPage=${PAGE}&page=${page}`);
      const items = Array.isArray(json.data) ? (json.data as Record<string, unknown>[]) : [];
      for (const item of items) {
        const value = pick(item);
        if (value !== null) out.push(value);
      }
      const pagination = (json.meta as { pagination?: { total_pages?: number } } | undefined)?.pagination;
      if (items.length < PAGE || !pagination?.total_pages || page >= pagination.total_pages) break;
    }
    return out;
  }

  const enc = encodeURIComponent;

  return {
    appId,
    region: options.region,
    ghostUid: options.ghostUid || DEFAULT_GHOST_UID,
    async ensureUser(user) {
      const created = await tolerating(/^ERR_UID_ALREADY_EXISTS$/, () =>
        call("POST", "/users", {
          uid: user.uid,
          name: user.name.slice(0, 100) || user.uid,
          ...(user.avatar ? { avatar: user.avatar } : {}),
        }),
      );
      return created ? "created" : "existing";
    },
    async createAuthToken(uid) {
      const json = await call("POST", `/users/${enc(uid)}/auth_tokens`, {});
      const token = (json.data as { authToken?: unknown } | undefined)?.authToken;
      if (typeof token !== "string" || !token)
        throw new CometChatError(502, "CometChat answered without a token.", null);
      return token;
    },
    async ensureGroup(group) {
      await tolerating(/^ERR_GUID_ALREADY_EXISTS$/, () =>
        call("POST", "/groups", {
          guid: group.guid,
          name: group.name.slice(0, 100) || group.guid,
          type: group.type,
          ...(group.owner ? { owner: group.owner } : {}),
        }),
      );
    },
    async addMembers(guid, members) {
      const entries: [string, string][] = [];
      const field = { admin: "admins", moderator: "moderators", participant: "participants", banned: "usersToBan" };
      for (const [scope, key] of Object.entries(field))
        for (const uid of members[scope as keyof typeof field] ?? []) entries.push([key, uid]);
      const results: MemberResult[] = [];
      for (let i = 0; i < entries.length; i += ADD_BATCH) {
        const batch: Record<string, string[]> = {};
        for (const [key, uid] of entries.slice(i, i + ADD_BATCH)) batch[key] = [...(batch[key] ?? []), uid];
        const json = await call("POST", `/groups/${enc(guid)}/members`, batch);
        const data = (json.data ?? {}) as Record<string, Record<string, { success?: unknown; error?: unknown }>>;
        for (const [key, uids] of Object.entries(batch))
          for (const uid of uids) {
            const entry = data[key]?.[uid] ?? data[key]?.[uid.toLowerCase()];
            const error = entry?.error as { code?: unknown } | undefined;
            const ok = entry ? entry.success === true || !error : true;
            results.push({ uid, ok, code: ok ? null : typeof error?.code === "string" ? error.code : "ERR_UNKNOWN" });
          }
      }
      return results;
    },
    async setScope(guid, uid, scope) {
      // Asking for the scope a member already has is not a failure.
      await tolerating(/SAME_SCOPE|ALREADY_HAS_SCOPE/, () =>
        call("PUT", `/groups/${enc(guid)}/members/${enc(uid)}`, { scope }),
      );
    },
    async kick(guid, uid) {
      await tolerating(/NOT_A_MEMBER|NOT_FOUND|NOT_JOINED/, () =>
        call("DELETE", `/groups/${enc(guid)}/members/${enc(uid)}`),
      );
    },
    async unban(guid, uid) {
      await tolerating(/NOT_BANNED|NOT_FOUND/, () => call("DELETE", `/groups/${enc(guid)}/bannedusers/${enc(uid)}`));
    },
    listMembers(guid) {
      return pages(`/groups/${enc(guid)}/members`, (m) =>
        typeof m.uid === "string" ? { uid: m.uid, scope: typeof m.scope === "string" ? m.scope : "participant" } : null,
      );
    },
    listBanned(guid) {
      return pages(`/groups/${enc(guid)}/bannedusers`, (m) => (typeof m.uid === "string" ? m.uid : null));
    },
  };
}
