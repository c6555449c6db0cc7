/**
 * A stand-in for Discord's side of an Activity, for the browser tests (discord-activity.suite.ts): one HTTP server
 * that is both Discord's client and Discord's proxy.
 *
 * - `http://127.0.0.1:<port>/.discord/top?...` stands for discord.com (another site than the Activity's frame): it
 *   frames the client page below, so the Activity's cookies are a third-party frame's, as in Discord.
 * - `http://localhost:<port>/.discord/client?...` stands for Discord's client around the Activity: it frames the
 *   Activity (the web app, at `/?frame_id=...&instance_id=...&platform=desktop&guild_id=...&channel_id=...`) and
 *   answers the Embedded App SDK's postMessage protocol: the handshake with READY, AUTHORIZE with the code the test
 *   gave it, AUTHENTICATE with the Discord user. It is on the Activity's own origin, which the SDK accepts messages
 *   from (in Discord: discordsays.com frames under discord.com).
 * - Everything else on `localhost:<port>` is Discord's proxy: `/.proxy/<prefix>/...` forwarded to the mapping's
 *   target (HTTP and WebSocket), the rest to the root mapping (the web server). Each proxied request is recorded.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";

export interface ProxiedRequest {
  prefix: string | null;
  method: string;
  path: string;
  upgrade: boolean;
}

export interface DiscordStandIn {
  port: number;
  /** The Activity's origin (Discord's proxy). */
  origin: string;
  /** What went through the proxy, in order. */
  proxied: ProxiedRequest[];
  /** The page standing for discord.com with the Activity open in a voice channel, for one Discord user. */
  topUrl(at: {
    guild: string;
    channel: string;
    instance: string;
    code: string;
    user: { id: string; username: string };
  }): string;
  close(): Promise<void>;
}

const CLIENT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Discord (stand-in)</title></head>
<body style="margin:0"><iframe id="activity" style="width:100%;height:100vh;border:0" allow="autoplay"></iframe>
<script>
const q = new URLSearchParams(location.search);
const user = JSON.parse(q.get("user"));
const frame = document.getElementById("activity");
const app = new URLSearchParams({ frame_id: q.get("frame"), instance_id: q.get("instance"), platform: "desktop",
  guild_id: q.get("guild"), channel_id: q.get("channel") });
window.commands = [];
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [op, payload] = event.data;
  const reply = (data) => frame.contentWindow.postMessage(data, location.origin);
  if (op === 0) {
    window.handshake = payload;
    reply([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
      user: { id: user.id, username: user.username, discriminator: "0" } } }]);
    return;
  }
  if (op !== 1) return;
  window.commands.push(payload.cmd);
  const answer = (data) => reply([1, { cmd: payload.cmd, evt: null, nonce: payload.nonce, data }]);
  if (payload.cmd === "AUTHORIZE") {
    window.authorizeArgs = payload.args;
    answer({ code: q.get("code") });
  } else if (payload.cmd === "AUTHENTICATE") {
    window.authenticated = payload.args.access_token;
    answer({ access_token: payload.args.access_token, scopes: ["identify", "email", "guilds"], expires: "2100-01-01T00:00:00Z",
      user: { id: user.id, username: user.username, discriminator: "0", public_flags: 0, global_name: null },
      application: { id: payload.args.client_id ?? "", name: "Booth", description: "" } });
  }
});
frame.src = "/?" + app.toString();
</script></body></html>`;

const topPage = (
  clientUrl: string,
) => `<!doctype html><html><head><meta charset="utf-8"><title>discord.com (stand-in)</title></head>
<body style="margin:0"><iframe id="client" src="${clientUrl.replace(/&/g, "&amp;")}" style="width:100%;height:100vh;border:0" allow="autoplay"></iframe></body></html>`;

/** Starts the stand-in; `targets` maps each proxy prefix (`edge`, `party`) to an origin, `root` is the web server. */
export async function startDiscordStandIn(root: string, targets: Record<string, string>): Promise<DiscordStandIn> {
  const proxied: ProxiedRequest[] = [];
  const route = (url: string) => {
    const match = /^\/\.proxy\/([a-z0-9-]+)(\/.*)?$/.exec(url.split("?")[0] ?? "");
    if (match) {
      const target = targets[match[1] as string];
      if (!target) return null;
      const rest = url.slice(`/.proxy/${match[1]}`.length) || "/";
      return { prefix: match[1] as string, target: new URL(target), path: rest.startsWith("/") ? rest : `/${rest}` };
    }
    return { prefix: null, target: new URL(root), path: url };
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "/";
    if (url.startsWith("/.discord/top")) {
      const client = new URL(`http://localhost:${port}/.discord/client`);
      client.search = new URL(url, "http://x").search;
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(topPage(client.toString()));
    }
    if (url.startsWith("/.discord/client")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(CLIENT_PAGE);
    }
    const to = route(url);
    if (!to) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("no such URL mapping");
    }
    proxied.push({ prefix: to.prefix, method: req.method ?? "GET", path: to.path, upgrade: false });
    const headers = { ...req.headers, host: to.target.host };
    const out = httpRequest(
      { host: to.target.hostname, port: to.target.port, method: req.method, path: to.path, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("the proxy's target did not answer");
    });
    req.pipe(out);
  });

  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const to = route(req.url ?? "/");
    if (!to) return socket.destroy();
    proxied.push({ prefix: to.prefix, method: req.method ?? "GET", path: to.path, upgrade: true });
    const upstream = connect(Number(to.target.port), to.target.hostname, () => {
      const lines = [`${req.method} ${to.path} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i] as string;
        const value = name.toLowerCase() === "host" ? to.target.host : (req.rawHeaders[i + 1] as string);
        lines.push(`${name}: ${value}`);
      }
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on("error", end);
    socket.on("error", end);
    upstream.on("close", end);
    socket.on("close", end);
  });

  // localhost may be ::1 or 127.0.0.1 to the browser: both (dual stack), else IPv4 alone.
  await new Promise<void>((resolve, reject) => {
    server.once("error", () => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    server.listen({ port: 0, host: "::", ipv6Only: false }, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://localhost:${port}`,
    proxied,
    topUrl: ({ guild, channel, instance, code, user }) => {
      const q = new URLSearchParams({
        guild,
        channel,
        instance,
        frame: `frame-${crypto.randomUUID()}`,
        code,
        user: JSON.stringify(user),
      });
      return `http://127.0.0.1:${port}/.discord/top?${q}`;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
