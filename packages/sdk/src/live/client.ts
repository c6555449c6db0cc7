import jsonpatch, { type Operation } from "fast-json-patch";
import ReconnectingWebSocket from "partysocket/ws";
import { CloseCode } from "./close-codes.ts";
import type {
  ActionParams,
  ActionResults,
  ChatMessage,
  ClientAction,
  JoinResult,
  LiveState,
  ReplyMessage,
  RoomRole,
  ServerMessage,
  SongRef,
  StatefulServerMessage,
  StatelessServerMessage,
} from "./protocol.ts";

/** Only the reference goes on the wire: a crate song passed whole would be dropped by the room all the same. */
const songRef = (song: SongRef): SongRef =>
  song.crateSongUuid ? { songId: song.songId, crateSongUuid: song.crateSongUuid } : { songId: song.songId };

/**
 * The part of the WebSocket API the client uses (through partysocket): the browser's, Node 22's, or the `ws`
 * package's.
 */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  addEventListener(type: string, listener: (event: never) => void): void;
  removeEventListener(type: string, listener: (event: never) => void): void;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface LiveRoomClientOptions {
  /** The live rooms' base URL, e.g. http://127.0.0.1:1999 (ws: and wss: work too). */
  url: string;
  roomUuid: string;
  /** The bearer token, or a function answering a fresh one for each connection. */
  token: string | (() => string | Promise<string>);
  password?: string;
  guestPassword?: string;
  /** Defaults to the global WebSocket (Node 22 and later, browsers, Deno), else the `ws` package. */
  WebSocket?: WebSocketConstructor;
  /** Reconnect delays: the first, doubled each time up to the max (with jitter). */
  backoff?: { initialMs?: number; maxMs?: number };
  /** How long a room reset waits before rejoining, at most (the spec: a random delay up to 2 s). */
  resetDelayMs?: number;
  requestTimeoutMs?: number;
}

/** An action the room refused, with its status and message. */
export class LiveRoomError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = "LiveRoomError";
  }
}

type Events = {
  /** The state changed: after a join (`name` "joinRoom") or a stateful message. */
  state: (state: LiveState, name: string) => void;
  /** Every message from the room, as it arrives. */
  message: (message: ServerMessage) => void;
  /** Stateless messages: animations, chat, kicks, resets. */
  event: (message: StatelessServerMessage) => void;
  joined: (result: JoinResult) => void;
  kicked: (reason: string) => void;
  reset: () => void;
  /** The socket closed; `willReconnect` says whether the client tries again. */
  disconnected: (info: { code: number; reason: string; willReconnect: boolean }) => void;
  error: (error: Error) => void;
};

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

const OPEN = 1;

/**
 * A client of one live room: joins, keeps the room's state by applying the patches (rejoining for the full state on
 * a gap in `seq` or a patch that does not apply), reconnects with backoff, and exposes the actions as methods whose
 * promises settle with the room's replies.
 *
 * Reconnection and its backoff are partysocket's (`ReconnectingWebSocket`, which asks for a fresh URL, so a fresh
 * token, at each attempt); what a room's protocol needs on top is this client's: a join after every open, the seq
 * and the rejoin on a gap, no reconnect after a kick or a refusal, and a random short wait after a room reset.
 */
export class LiveRoomClient {
  state: LiveState | null = null;
  seq = 0;
  chatMessages: ChatMessage[] = [];
  /** The room's sanctions this client may see: all of them for a moderator, their own for anyone else. */
  sanctions: RoomRole[] = [];
  private socket: ReconnectingWebSocket | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Map<keyof Events, Set<(...args: never[]) => void>>();
  private requests = 0;
  private joining: Promise<JoinResult> | null = null;
  /** Stateful messages that arrive while a (re)join is in flight. */
  private buffered: StatefulServerMessage[] | null = null;
  private stopped = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private firstJoin: { resolve: (r: JoinResult) => void; reject: (e: Error) => void } | null = null;

  constructor(private readonly options: LiveRoomClientOptions) {}

  on<K extends keyof Events>(event: K, listener: Events[K]): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  private emit<K extends keyof Events>(event: K, ...args: Parameters<Events[K]>) {
    for (const l of this.listeners.get(event) ?? []) (l as unknown as (...a: Parameters<Events[K]>) => void)(...args);
  }

  /** Connects and joins; settles with the first join's result (or its refusal). */
  connect(): Promise<JoinResult> {
    this.stopped = false;
    return new Promise<JoinResult>((resolve, reject) => {
      this.firstJoin = { resolve, reject };
      void this.open();
    });
  }

  /** Leaves for good: no reconnect. */
  close() {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.discard(1000, "bye");
    this.failPending(new LiveRoomError(499, "The client closed the connection."));
  }

  get connected() {
    return this.socket?.readyState === OPEN;
  }

  // ---- actions --------------------------------------------------------------------------------------------------

  /** Takes a DJ seat; with a song (its id, and the crate entry it comes from), that song plays first. */
  addDj(song?: SongRef) {
    return this.request("addDj", song ? { song: songRef(song) } : {});
  }
  removeDj(userUuid?: string) {
    return this.request("removeDj", userUuid ? { userUuid } : {});
  }
  /** The song this DJ plays next (null: their queue crate decides again). The room looks it up in the catalogue. */
  updateNextSong(song: SongRef | null) {
    return this.request("updateNextSong", { song: song ? songRef(song) : null });
  }
  skipSong() {
    return this.request("skipSong", {});
  }
  voteOnSong(songVotes: { like?: boolean; star?: boolean }) {
    return this.request("voteOnSong", { songVotes });
  }
  playOneTimeAnimation(animation: "emoji" | "jump", emoji?: string) {
    return this.request("playOneTimeAnimation", emoji ? { animation, emoji } : { animation });
  }
  sendChatMessage(params: ActionParams["sendChatMessage"]) {
    return this.request("sendChatMessage", params);
  }
  editChatMessage(id: string, message: string) {
    return this.request("editChatMessage", { id, message });
  }
  deleteChatMessage(id: string) {
    return this.request("deleteChatMessage", { id });
  }
  /** Reacts to a chat message with `emoji` (`on`), or takes the reaction back. */
  reactToChatMessage(id: string, emoji: string, on = true) {
    return this.request("reactToChatMessage", { id, emoji, on });
  }
  /** Lines up for a DJ seat (the room's waitlist); answers the place, or `seated` when a seat was free. */
  joinWaitlist() {
    return this.request("joinWaitlist", {});
  }
  /** Leaves the waitlist; a moderator names another to take them off it. */
  leaveWaitlist(userUuid?: string) {
    return this.request("leaveWaitlist", userUuid ? { userUuid } : {});
  }
  /** Grabs the song playing into one of your crates (its uuid, or `queue` / `likes`); the room counts the grabs. */
  grabSong(crate: string) {
    return this.request("grabSong", { crate });
  }
  /** Moderators: puts someone at a place of the waitlist (1 is first). */
  moveInWaitlist(userUuid: string, position: number) {
    return this.request("moveInWaitlist", { userUuid, position });
  }

  /** Sends an action; the promise settles with the room's reply (a LiveRoomError when refused). */
  request<A extends ClientAction>(action: A, params: ActionParams[A]): Promise<ActionResults[A]> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN)
      return Promise.reject(new LiveRoomError(503, "Not connected to the room."));
    const requestId = `r${++this.requests}`;
    return new Promise<ActionResults[A]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new LiveRoomError(504, `The room did not answer ${action} in time.`));
      }, this.options.requestTimeoutMs ?? 15_000);
      this.pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject, timer });
      socket.send(JSON.stringify({ action, params, requestId }));
    });
  }

  // ---- the connection ------------------------------------------------------------------------------------------

  private async socketUrl() {
    const token = typeof this.options.token === "function" ? await this.options.token() : this.options.token;
    const base = this.options.url.replace(/\/+$/, "").replace(/^http/, "ws");
    return `${base}/parties/main/${encodeURIComponent(this.options.roomUuid)}?token=${encodeURIComponent(token)}`;
  }

  private async open() {
    let Ctor: WebSocketConstructor;
    try {
      Ctor = this.options.WebSocket ?? (await defaultWebSocket());
    } catch (err) {
      this.emit("error", err as Error);
      return;
    }
    if (this.stopped) return;
    const initial = this.options.backoff?.initialMs ?? 500;
    const socket = new ReconnectingWebSocket(() => this.socketUrl(), undefined, {
      WebSocket: Ctor,
      // The first retry after `initial`, doubled each time up to the max.
      minReconnectionDelay: initial,
      maxReconnectionDelay: this.options.backoff?.maxMs ?? 10_000,
      reconnectionDelayGrowFactor: 2,
      // A room waking up checks the token against the edge's keys first: give it time.
      connectionTimeout: 10_000,
      // An action sent while the socket is down is refused at once (request()), never queued for later.
      maxEnqueuedMessages: 0,
    });
    this.socket = socket;
    socket.onopen = () => {
      void this.join().catch(() => undefined);
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => undefined;
    socket.onclose = (event) => this.closed(socket, event.code, event.reason);
  }

  /** Stops the socket for good (no reconnect, no events from it). */
  private discard(code: number, reason: string) {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onclose = null;
    socket.close(code, reason);
  }

  /** Joins (or rejoins) on the open socket and takes the full state. */
  private join(): Promise<JoinResult> {
    if (this.joining) return this.joining;
    this.buffered = [];
    const { roomUuid, password, guestPassword } = this.options;
    const joining = this.request("joinRoom", {
      roomUuid,
      ...(password !== undefined ? { password } : {}),
      ...(guestPassword !== undefined ? { guestPassword } : {}),
    })
      .then((result) => {
        this.joining = null;
        this.state = result.state;
        this.seq = result.seq;
        this.chatMessages = result.chatMessages;
        this.sanctions = result.sanctions ?? [];
        const late = this.buffered ?? [];
        this.buffered = null;
        this.emit("joined", result);
        this.emit("state", result.state, "joinRoom");
        for (const m of late) this.applyStateful(m);
        this.firstJoin?.resolve(result);
        this.firstJoin = null;
        return result;
      })
      .catch((err: Error) => {
        this.joining = null;
        this.buffered = null;
        if (this.firstJoin) {
          // The first join was refused (banned, wrong password...): stop, and say why.
          this.firstJoin.reject(err);
          this.firstJoin = null;
          this.close();
        } else {
          this.emit("error", err);
          // Refused on a rejoin (kicked, banned, the room deleted): there is no point trying again.
          if (err instanceof LiveRoomError && [401, 403, 404].includes(err.statusCode)) this.close();
        }
        throw err;
      });
    this.joining = joining;
    return joining;
  }

  private receive(data: unknown) {
    let message: ServerMessage;
    try {
      message = JSON.parse(typeof data === "string" ? data : String(data)) as ServerMessage;
    } catch {
      return;
    }
    this.emit("message", message);
    if ("ok" in message) return this.settle(message);
    if ("statePatch" in message) {
      if (this.buffered) this.buffered.push(message);
      else this.applyStateful(message);
      return;
    }
    this.stateless(message);
  }

  private settle(reply: ReplyMessage) {
    const pending = reply.requestId === null ? undefined : this.pending.get(String(reply.requestId));
    if (!pending) {
      if (!reply.ok) this.emit("error", new LiveRoomError(reply.statusCode, reply.message));
      return;
    }
    this.pending.delete(String(reply.requestId));
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply.result);
    else pending.reject(new LiveRoomError(reply.statusCode, reply.message));
  }

  private applyStateful(message: StatefulServerMessage) {
    if (!this.state || message.seq <= this.seq) return;
    if (message.seq !== this.seq + 1) {
      void this.join().catch(() => undefined);
      return;
    }
    try {
      this.state = jsonpatch.applyPatch(this.state, message.statePatch as Operation[], true, false)
        .newDocument as LiveState;
      this.seq = message.seq;
    } catch {
      // "Failed to apply JSON Patch": take the full state again.
      void this.join().catch(() => undefined);
      return;
    }
    this.emit("state", this.state, message.name);
  }

  private stateless(message: StatelessServerMessage) {
    switch (message.name) {
      case "chatMessage":
        this.chatMessages = [...this.chatMessages, message.params.message].slice(-300);
        break;
      case "chatMessageUpdated": {
        const edited = message.params.message;
        this.chatMessages = this.chatMessages.map((m) => (m.id === edited.id ? edited : m));
        break;
      }
      case "chatMessageDeleted":
        this.chatMessages = this.chatMessages.filter((m) => m.id !== message.params.id);
        break;
      case "chatCleared":
        this.chatMessages = [];
        break;
      case "updatedSanctions":
        this.sanctions = message.params.sanctions;
        break;
      case "kickedFromRoom":
        this.stopped = true;
        this.emit("kicked", message.params.reason);
        break;
      case "roomReset":
        this.state = null;
        this.emit("reset");
        break;
    }
    this.emit("event", message);
  }

  private closed(socket: ReconnectingWebSocket, code: number, reason: string) {
    if (this.socket !== socket) return;
    this.joining = null;
    this.buffered = null;
    this.failPending(new LiveRoomError(503, "The connection to the room closed."));
    const final = this.stopped || code === CloseCode.kicked || code === CloseCode.unauthorized;
    if (code === CloseCode.kicked || code === CloseCode.unauthorized) this.stopped = true;
    this.emit("disconnected", { code, reason, willReconnect: !final });
    if (this.firstJoin && final) {
      this.firstJoin.reject(new LiveRoomError(code === CloseCode.kicked ? 403 : 401, reason || "Refused."));
      this.firstJoin = null;
    }
    if (final) {
      this.discard(1000, "closed");
      return;
    }
    if (code === CloseCode.reset) {
      // Everyone in the room was closed at once: rejoin after a random short wait rather than all together.
      this.discard(1000, "room reset");
      const wait = Math.random() * (this.options.resetDelayMs ?? 2000);
      this.reconnectTimer = setTimeout(() => void this.open(), wait);
    }
    // Anything else: partysocket reconnects with its backoff, and onopen joins again.
  }

  private failPending(error: Error) {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(error);
      this.pending.delete(id);
    }
  }
}

async function defaultWebSocket(): Promise<WebSocketConstructor> {
  const global = (globalThis as unknown as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global) return global;
  const ws = await import("ws");
  return ws.WebSocket as unknown as WebSocketConstructor;
}
