import { createBoothClient } from "@booth/sdk";
import { LiveRoomClient } from "@booth/sdk/live";
import { BoothBot, type BotOptions } from "./behaviour.ts";

export interface RunBotOptions {
  apiUrl: string;
  partyUrl: string;
  token: string;
  /** The room's slug or uuid. */
  room: string;
  /** A crate (uuid) whose songs the bot puts in its queue before it sits down. */
  crate?: string;
  password?: string;
  log: (line: string) => void;
  behaviour?: Partial<BotOptions>;
}

/**
 * Brings a bot into a room: who it is, the room, its queue (topped up from `crate`), the live connection, and the
 * behaviour. Answers a handle whose `stop()` gives the seat back and closes the connection.
 */
export async function runBot(options: RunBotOptions) {
  const api = createBoothClient({ baseUrl: options.apiUrl, token: options.token });
  const { data: session } = await api.user.GET("/auth/session");
  if (!session) throw new Error("no session for this token");
  const me = { uuid: session.user.uuid, nickname: session.user.profile?.nickname ?? "bot" };
  const { data: room } = await api.room.GET("/rooms/{slug}", { params: { path: { slug: options.room } } });
  if (!room) throw new Error(`no room ${options.room}`);

  if (options.crate) {
    const added = await fillQueue(api, options.crate);
    options.log(`queue: ${added} song${added === 1 ? "" : "s"} added from crate ${options.crate}`);
  }
  const { data: queue } = await api.playlist.GET("/crate/special/queue");
  if (!queue?.crateSongsNumber) options.log("warning: the queue crate is empty; the bot has nothing to play");

  // The REST join checks bans, kicks and the password, and counts the visit; the live room checks them again.
  await api.room.POST("/rooms/{slug}/join", {
    params: { path: { slug: room.slug } },
    body: options.password ? { password: options.password } : {},
  });
  const client = new LiveRoomClient({
    url: options.partyUrl,
    roomUuid: room.uuid,
    token: options.token,
    ...(options.password ? { password: options.password } : {}),
  });
  client.on("kicked", (reason) => options.log(`kicked: ${reason}`));
  client.on("disconnected", ({ willReconnect }) => {
    if (willReconnect) options.log("connection lost; reconnecting");
  });
  await client.connect();
  options.log(`${me.nickname} joined ${room.name} (/${room.slug})`);
  const bot = new BoothBot(client, { me, log: options.log, ...options.behaviour });
  bot.start();
  return {
    bot,
    client,
    me,
    room,
    async stop() {
      await bot.leave();
      client.close();
    },
  };
}

/** Adds the crate's songs that are not in the queue yet; answers how many it added. */
async function fillQueue(api: ReturnType<typeof createBoothClient>, crate: string) {
  const [{ data: wanted }, { data: queued }] = await Promise.all([
    api.playlist.GET("/crate/{id}/songs", { params: { path: { id: crate } } }),
    api.playlist.GET("/crate/special/queue/songs"),
  ]);
  const have = new Set((queued ?? []).map((s) => s.songId));
  const songIds = [...new Set((wanted ?? []).map((s) => s.songId))].filter((id) => !have.has(id));
  if (songIds.length) await api.playlist.POST("/crate/special/queue/songs", { body: { songIds } });
  return songIds.length;
}
