/**
 * The Worker: one Durable Object per room (`/parties/main/{roomUuid}`, routed by PartyServer's
 * `routePartykitRequest`), handing sockets, storage, alarms and the edge's HTTP calls to `LiveRoom`. A token is
 * checked before a socket reaches the room (`onBeforeConnect`), so a bad one never wakes a room.
 *
 * Hibernation is on: who a connection is (claims, token, the user it joined as) lives in the connection's own state,
 * and a room that wakes from hibernation, or whose isolate was evicted, finds its connections again with
 * `getConnections` (see `onStart`).
 */

import { env as workerEnv } from "cloudflare:workers";
import { EdgeEventSchema } from "@booth/sdk/live/edge-events";
import { roomsTokenSource } from "@booth/sdk/live/service-auth";
import { scrubEvent } from "@booth/sdk/privacy";
import { BOOTH_VERSION } from "@booth/sdk/version";
import {
  type CloudflareOptions,
  captureException,
  instrumentDurableObjectWithSentry,
  withSentry,
} from "@sentry/cloudflare";
import { type Connection, type ConnectionContext, routePartykitRequest, Server, type WSMessage } from "partyserver";
import { type Claims, EdgeUnreachable, edgeKeys, tokenOf, verifyToken } from "./auth.ts";
import { settingsOf } from "./config.ts";
import { EdgeError, httpEdge } from "./edge.ts";
import { DEFAULT_CONFIG, type RoomConfig } from "./reducer.ts";
import { LiveRoom, type Socket } from "./room.ts";
import { keyValueStateStore } from "./storage.ts";

/**
 * The Worker's bindings; its variables and secrets (wrangler.jsonc, `wrangler secret put`) are read through
 * config.ts's schema (`settingsOf`).
 */
export interface Env {
  /** The rooms' Durable Object namespace: its binding name `Main` is the `main` of `/parties/main/{room}`. */
  Main: DurableObjectNamespace<LiveRoomServer>;
}

/**
 * Set only by `wrangler dev --define BOOTH_TEST_FAULTS:true` (the rooms' Sentry test): a room then throws on a request
 * that asks it to, so the test has an error in a room's handling to find at Sentry. A deployed bundle is built without
 * the define, where the check below is false and the fault cannot be asked for.
 */
declare const BOOTH_TEST_FAULTS: boolean | undefined;
const TEST_FAULTS = typeof BOOTH_TEST_FAULTS !== "undefined" && BOOTH_TEST_FAULTS === true;

const CLAIMS_HEADER = "x-booth-claims";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a connection remembers across hibernation. */
interface ConnectionState {
  claims: Claims;
  token: string;
  /** The user this socket joined the room as, once its `joinRoom` succeeded. */
  joinedAs: string | null;
}

/** Where the room reaches the edge, and its clock's settings (the reducer's defaults unless set). */
function roomSettings(env: Env) {
  const settings = settingsOf(env);
  const config: RoomConfig = {
    graceMs: settings.BOOTH_PRESENCE_GRACE_MS ?? DEFAULT_CONFIG.graceMs,
    timeScale: settings.BOOTH_TIME_SCALE ?? DEFAULT_CONFIG.timeScale,
  };
  return { edgeUrl: settings.BOOTH_EDGE_URL, config, serviceSecret: settings.BOOTH_SERVICE_SECRET };
}

/** The claims of the request's token: null when there is none or it is not valid; throws when the edge is away. */
async function claimsOf(request: Request, edgeUrl: string): Promise<Claims | null> {
  const token = tokenOf(request);
  return token ? verifyToken(token, edgeKeys(edgeUrl)) : null;
}

const text = (status: number, message: string) =>
  new Response(JSON.stringify({ statusCode: status, message }), {
    status,
    headers: { "content-type": "application/json" },
  });

// Service tokens for the room's calls to the edge, signed here with the shared secret: one source per isolate.
let tokens: { secret: string; next: () => Promise<string> } | null = null;
function serviceTokens(secret: string | undefined): () => Promise<string> {
  if (!secret) return async () => Promise.reject(new EdgeError(503, "The rooms have no BOOTH_SERVICE_SECRET."));
  if (tokens?.secret !== secret) tokens = { secret, next: roomsTokenSource(secret) };
  return tokens.next;
}

class LiveRoomServer extends Server<Env> {
  static override options = { hibernate: true };
  private live: LiveRoom | null = null;

  override onStart() {
    return reported(() => this.startRoom());
  }

  private async startRoom() {
    const { edgeUrl, config, serviceSecret } = roomSettings(this.env);
    const id = this.name;
    const storage = this.ctx.storage;
    this.live = new LiveRoom(
      id,
      {
        store: keyValueStateStore({
          get: (key) => storage.get(key),
          // A put resolves when it is durable: while it is on its way, the room's next states wait and go together.
          put: async (entries) => {
            await storage.put(entries);
            await storage.sync();
          },
          delete: (keys) => storage.delete(keys),
          list: (options) => storage.list(options),
          deleteAll: async () => {
            // PartyServer keeps its own records (`__ps_...`) beside the room's: only the room's go.
            const keys = [...(await storage.list()).keys()].filter((k) => !k.startsWith("__ps"));
            for (let i = 0; i < keys.length; i += 128) await storage.delete(keys.slice(i, i + 128));
          },
        }),
        setAlarm: async (at) => {
          if (at === null) await storage.deleteAlarm();
          else await storage.setAlarm(Math.max(at, Date.now() + 1));
        },
        log: (entry) => console.log(JSON.stringify({ room: id, ...entry })),
      },
      httpEdge({ baseUrl: edgeUrl, serviceToken: serviceTokens(serviceSecret) }),
      config,
    );
    // After hibernation or an eviction the sockets are still open: the room takes them back as they were.
    const open = [...this.getConnections<ConnectionState>()].flatMap((c) => (c.state ? [this.socketOf(c)] : []));
    await this.live.start(open);
    console.log(JSON.stringify({ room: id, msg: "room started", connections: open.length }));
  }

  private socketOf(connection: Connection<ConnectionState>): Socket {
    const state = connection.state as ConnectionState;
    return {
      id: connection.id,
      claims: state.claims,
      token: state.token,
      joinedAs: state.joinedAs,
      joined: (userUuid) => {
        connection.setState((prev) => ({ ...(prev as ConnectionState), joinedAs: userUuid }));
      },
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
    };
  }

  override onConnect(connection: Connection<ConnectionState>, ctx: ConnectionContext) {
    const claims = JSON.parse(ctx.request.headers.get(CLAIMS_HEADER) ?? "null") as Claims | null;
    const token = tokenOf(ctx.request);
    if (!this.live || !claims || !token) {
      connection.close(4001, "Unauthorized");
      return;
    }
    connection.setState({ claims, token, joinedAs: null });
    this.live.connect(this.socketOf(connection));
  }

  override async onMessage(sender: Connection<ConnectionState>, message: WSMessage) {
    if (typeof message !== "string") {
      sender.send(JSON.stringify({ requestId: null, ok: false, statusCode: 400, message: "Send JSON text." }));
      return;
    }
    await reported(() => this.live?.message(sender.id, message));
  }

  override onClose(connection: Connection) {
    this.live?.disconnect(connection.id);
  }

  override onError(connection: Connection) {
    this.live?.disconnect(connection.id);
  }

  override onAlarm() {
    return reported(() => this.live?.alarm());
  }

  /**
   * The edge: GET the public state, POST a change made over REST. Service tokens only. One log line per request, with
   * the edge's request id (X-Request-Id): the line of the REST call that caused it carries the same.
   */
  override async onRequest(request: Request) {
    const response = await reported(() => this.answerEdge(request));
    const requestId = request.headers.get("x-request-id");
    console.log(
      JSON.stringify({
        room: this.name,
        msg: "edge request",
        method: request.method,
        status: response.status,
        ...(requestId ? { requestId } : {}),
      }),
    );
    return response;
  }

  private async answerEdge(request: Request) {
    if (TEST_FAULTS && request.headers.get("x-booth-test-fault") === "throw")
      throw new Error(`A test fault in room ${this.name}`);
    let claims: Claims | null;
    try {
      claims = await claimsOf(request, roomSettings(this.env).edgeUrl);
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

/**
 * Runs a room's handling, sending what it throws to Sentry when it reports (SENTRY_DSN) before throwing it on:
 * PartyServer answers a request's error with a 500 and logs a socket message's itself, so the error never reaches
 * the Durable Object's Sentry wrapper, which only sees what its handlers throw. The capture goes to the client of the
 * request or message being handled (the wrapper's scope), sent before the handling ends.
 */
async function reported<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (reporting) captureException(err, { mechanism: { handled: false, type: "auto.faas.cloudflare.partyserver" } });
    throw err;
  }
}

/** Only a valid user, bot or guest token opens a socket; the claims travel to onConnect in a header. */
async function beforeConnect(request: Request, lobby: { name: string }, env: Env) {
  if (!UUID.test(lobby.name)) return text(404, "No such room.");
  let claims: Claims | null;
  try {
    claims = await claimsOf(request, roomSettings(env).edgeUrl);
  } catch (err) {
    return text(503, err instanceof EdgeUnreachable ? err.message : "The edge cannot be reached.");
  }
  if (!claims || claims.type === "service") return text(401, "Unauthorized");
  const forwarded = new Request(request);
  // Set, never appended: whatever a client sent under this name is replaced.
  forwarded.headers.set(CLAIMS_HEADER, JSON.stringify(claims));
  return forwarded;
}

const handler = {
  async fetch(request: Request, env: Env): Promise<Response> {
    const routed = await routePartykitRequest(request, env as unknown as Record<string, unknown>, {
      onBeforeConnect: (req, lobby) => beforeConnect(req, lobby, env),
      onBeforeRequest: (req, lobby) => (UUID.test(lobby.name) ? req : text(404, "No such room.")),
    });
    return routed ?? text(404, "Not found.");
  },
} satisfies ExportedHandler<Env>;

/**
 * Sentry (@sentry/cloudflare), when SENTRY_DSN is set: the Worker's fetch and the room's handlers (its requests,
 * sockets and alarms) report what they throw, with Booth's version as the release. Errors only, nothing personal
 * (no default PII; each event scrubbed of users, cookies, tokens and codes: @booth/sdk/privacy). The Worker's
 * variables are read when it loads (`cloudflare:workers`), so without a DSN the classes are the plain ones.
 */
const sentryOptions = (env: Env): CloudflareOptions => ({
  dsn: settingsOf(env).SENTRY_DSN,
  release: BOOTH_VERSION,
  environment: settingsOf(env).SENTRY_ENVIRONMENT,
  sendDefaultPii: false,
  tracesSampleRate: 0,
  beforeSend: (event) => scrubEvent(event),
});
const reporting = !!settingsOf(workerEnv).SENTRY_DSN;

export const RoomServer = reporting ? instrumentDurableObjectWithSentry(sentryOptions, LiveRoomServer) : LiveRoomServer;
export default reporting ? withSentry(sentryOptions, handler) : handler;
