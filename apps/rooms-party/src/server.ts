/**
 * The PartyKit adapter: one Durable Object per room (`/parties/main/{roomUuid}`), handing sockets, storage, alarms
 * and the edge's HTTP calls to `LiveRoom`. Auth happens before a socket reaches the room (`onBeforeConnect`).
 */
import { EdgeEventSchema } from "@booth/sdk/live/edge-events";
import type * as Party from "partykit/server";
import { type Claims, importPublicKey, tokenOf, verifyToken } from "./auth.ts";
import { EdgeError, fetchPublicKeyPem, httpEdge } from "./edge.ts";
import { DEFAULT_CONFIG, type RoomConfig } from "./reducer.ts";
import { LiveRoom } from "./room.ts";
import { keyValueStateStore } from "./storage.ts";

const CLAIMS_HEADER = "x-booth-claims";
const ROOM_ID_KEY = "roomUuid";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Env {
  edgeUrl: string;
  serviceToken: string;
  config: RoomConfig;
}

function envOf(env: Record<string, unknown>): Env {
  const num = (name: string, fallback: number) => {
    const n = Number(env[name]);
    return env[name] !== undefined && env[name] !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    edgeUrl: String(env.BOOTH_EDGE_URL || "http://127.0.0.1:8787"),
    serviceToken: String(env.BOOTH_SERVICE_TOKEN ?? ""),
    config: {
      graceMs: num("BOOTH_PRESENCE_GRACE_MS", DEFAULT_CONFIG.graceMs),
      timeScale: num("BOOTH_TIME_SCALE", DEFAULT_CONFIG.timeScale),
    },
  };
}

// The edge's key, read once per isolate (and again after a failure).
let publicKey: { url: string; key: Promise<CryptoKey> } | null = null;
function edgeKey(edgeUrl: string) {
  if (!publicKey || publicKey.url !== edgeUrl) {
    const key = fetchPublicKeyPem(edgeUrl).then(importPublicKey);
    key.catch(() => {
      publicKey = null;
    });
    publicKey = { url: edgeUrl, key };
  }
  return publicKey.key;
}

async function claimsOf(request: { headers: Headers; url: string }, edgeUrl: string): Promise<Claims | null> {
  const token = tokenOf(request);
  if (!token) return null;
  return verifyToken(token, await edgeKey(edgeUrl));
}

const text = (status: number, message: string) =>
  new Response(JSON.stringify({ statusCode: status, message }), {
    status,
    headers: { "content-type": "application/json" },
  });

export default class RoomServer implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: false };
  private live: LiveRoom | null = null;
  private readonly env: Env;

  constructor(readonly room: Party.Room) {
    this.env = envOf(room.env);
  }

  /** Only a valid user, bot or guest token opens a socket; the claims travel to onConnect in a header. */
  static async onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    const env = envOf(lobby.env);
    if (!UUID.test(lobby.id)) return text(404, "No such room.");
    let claims: Claims | null;
    try {
      claims = await claimsOf(request as unknown as Request, env.edgeUrl);
    } catch (err) {
      return text(503, err instanceof EdgeError ? err.message : "The edge cannot be reached.");
    }
    if (!claims || claims.type === "service") return text(401, "Unauthorized");
    const forwarded = new Request(request as unknown as Request);
    forwarded.headers.set(CLAIMS_HEADER, JSON.stringify(claims));
    return forwarded as unknown as Party.Request;
  }

  async onStart() {
    let id: string | undefined;
    try {
      id = this.room.id;
    } catch {
      // Woken by an alarm, a room does not know its id: it kept it in storage.
    }
    id ||= await this.room.storage.get<string>(ROOM_ID_KEY);
    if (!id) return;
    await this.room.storage.put(ROOM_ID_KEY, id);
    const storage = this.room.storage;
    this.live = new LiveRoom(
      id,
      {
        store: keyValueStateStore({
          get: (key) => storage.get(key),
          put: (entries) => storage.put(entries),
          delete: (keys) => storage.delete(keys),
          list: (options) => storage.list(options),
          deleteAll: async () => {
            const keep = await storage.get<string>(ROOM_ID_KEY);
            await storage.deleteAll();
            if (keep) await storage.put(ROOM_ID_KEY, keep);
          },
        }),
        setAlarm: async (at) => {
          if (at === null) await storage.deleteAlarm();
          else await storage.setAlarm(Math.max(at, Date.now() + 1));
        },
        log: (entry) => console.log(JSON.stringify({ room: id, ...entry })),
      },
      httpEdge({ baseUrl: this.env.edgeUrl, serviceToken: this.env.serviceToken }),
      this.env.config,
    );
    await this.live.start();
  }

  onConnect(connection: Party.Connection, ctx: Party.ConnectionContext) {
    const request = ctx.request as unknown as Request;
    const claims = JSON.parse(request.headers.get(CLAIMS_HEADER) ?? "null") as Claims | null;
    const token = tokenOf(request);
    if (!this.live || !claims || !token) {
      connection.close(4001, "Unauthorized");
      return;
    }
    this.live.connect({
      id: connection.id,
      claims,
      token,
      send: (message) => {
        try {
          connection.send(message);
        } catch {
          // A socket closing as we speak.
        }
      },
      close: (code, reason) => {
        try {
          connection.close(code, reason);
        } catch {
          // Already closed.
        }
      },
    });
  }

  async onMessage(message: string | ArrayBuffer | ArrayBufferView, sender: Party.Connection) {
    if (typeof message !== "string") {
      sender.send(JSON.stringify({ requestId: null, ok: false, statusCode: 400, message: "Send JSON text." }));
      return;
    }
    await this.live?.message(sender.id, message);
  }

  onClose(connection: Party.Connection) {
    this.live?.disconnect(connection.id);
  }

  onError(connection: Party.Connection) {
    this.live?.disconnect(connection.id);
  }

  onAlarm() {
    this.live?.alarm();
  }

  /** The edge: GET the public state, POST a change made over REST. Service tokens only. */
  async onRequest(request: Party.Request) {
    let claims: Claims | null;
    try {
      claims = await claimsOf(request as unknown as Request, this.env.edgeUrl);
    } catch {
      return text(503, "The edge cannot be reached.");
    }
    if (!claims) return text(401, "Unauthorized");
    if (claims.type !== "service") return text(403, "Forbidden");
    if (!this.live) return text(404, "No such room.");
    if (request.method === "GET") {
      const state = this.live.publicState();
      return state ? Response.json(state) : text(404, "This room is not live: nobody is in it.");
    }
    if (request.method !== "POST") return text(405, "Method Not Allowed");
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return text(400, "The body is not JSON.");
    }
    const event = EdgeEventSchema.safeParse(body);
    if (!event.success) return text(400, event.error.issues[0]?.message ?? "Bad event.");
    try {
      await this.live.edgeEvent(event.data);
    } catch (err) {
      if (err instanceof EdgeError) return text(502, err.message);
      throw err;
    }
    return new Response(null, { status: 204 });
  }
}

RoomServer satisfies Party.Worker;
