/**
 * The rooms bench's baseline on the rooms' own runtime (bench/rooms.bench.ts): a bare Durable Object that does what
 * the Worker room does for a vote and nothing of Booth's. It accepts WebSockets with the same hibernation API the
 * room uses (`ctx.acceptWebSocket`, `webSocketMessage`), and on each message sends every socket one text message of
 * the size the room's vote message has (`?bytes=`, given when the socket connects), naming the vote as the room's
 * does (`votedOnSong`), and answers its sender as the room answers a vote. No validation, reducer, patch, storage
 * write or attachment: the difference to the room is Booth's own work (and PartyServer's).
 *
 * Run only by the bench under `wrangler dev` (bench/wrangler.jsonc beside this file): not part of the rooms' Worker
 * and never deployed.
 */
import { DurableObject } from "cloudflare:workers";

export interface Env {
  Bare: DurableObjectNamespace<BareRoom>;
}

export class BareRoom extends DurableObject<Env> {
  /** The size of the room's vote message, in bytes. */
  private bytes = 0;
  /** Who a broadcast goes to, kept until a socket comes or goes (the room keeps its list the same way). */
  private sockets: WebSocket[] | null = null;

  override async fetch(request: Request) {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket")
      return new Response("WebSockets only.", { status: 426 });
    this.bytes = Number(new URL(request.url).searchParams.get("bytes") ?? 0);
    // Kept for a wake after the runtime evicted the object between storms.
    this.ctx.storage.kv.put("bytes", this.bytes);
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    this.sockets = null;
    return new Response(null, { status: 101, webSocket: client });
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    if (typeof message !== "string") return;
    this.bytes ||= Number(this.ctx.storage.kv.get("bytes") ?? 0);
    let request: { requestId?: unknown };
    try {
      request = JSON.parse(message) as { requestId?: unknown };
    } catch {
      return;
    }
    const vote = { name: "votedOnSong", vote: request };
    const plain = JSON.stringify(vote);
    // `,"pad":""` is 9 characters; the pad fills the rest (the bench's vote messages are ASCII: characters are bytes).
    const text =
      this.bytes > plain.length + 9
        ? JSON.stringify({ ...vote, pad: "x".repeat(this.bytes - plain.length - 9) })
        : plain;
    this.sockets ??= this.ctx.getWebSockets();
    for (const socket of this.sockets)
      try {
        socket.send(text);
      } catch {
        // A socket closing as we speak.
      }
    ws.send(JSON.stringify({ requestId: request.requestId ?? null, ok: true }));
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string) {
    this.sockets = null;
    try {
      ws.close(code, reason);
    } catch {
      // Already closed.
    }
  }

  override webSocketError() {
    this.sockets = null;
  }
}

export default {
  async fetch(request: Request, env: Env) {
    const name = /^\/bare\/([\w-]{1,64})$/.exec(new URL(request.url).pathname)?.[1];
    if (!name) return new Response("Not found.", { status: 404 });
    return env.Bare.get(env.Bare.idFromName(name)).fetch(request);
  },
} satisfies ExportedHandler<Env>;
