import { type Db, schema } from "@booth/db";
import { and, eq, lt, or } from "drizzle-orm";
import type { AppDeps } from "../../deps.ts";
import { firstRow } from "../../lib/rows.ts";
import type { JobPayloads } from "../../ports/jobs.ts";
import { findRoom, type Room } from "./access.ts";

/**
 * A followed DJ starting to play in a guild's room, posted to the channel the guild chose (`/booth announce`): the
 * song start queues a job (`announceDjStart`), a worker posts it over Discord's REST API with the bot's token
 * (`postDjStart`). At most one post per DJ per room per `ANNOUNCE_QUIET_MINUTES`, claimed in the database, so any
 * number of edges and workers post it once.
 */
export const ANNOUNCE_QUIET_MINUTES = 30;
/** How many times a post waits as Discord asks (429) before its job fails (and the queue retries it later). */
const MAX_WAITS = 5;

/** Discord's markdown characters in a name shown as they are (names and titles come from people). */
export const plain = (text: string) => text.replace(/([\\*_~`|>#[\]()-])/g, "\\$1");

type AnnounceDeps = Pick<AppDeps, "db" | "clock" | "jobs" | "config" | "logger">;
type Announcement = JobPayloads["discord-announce"];

/** Why Booth turned a guild's announcements off by itself. */
export const ANNOUNCE_OFF_REASONS = {
  gone: (status: number) =>
    `Discord answered ${status} to a post: the channel is gone or the bot may not post there (it needs View Channel and Send Messages). A manager chooses a channel again with /booth announce on.`,
} as const;

/** The guild's announcements channel, or null when it has not chosen one (or they are off). */
export async function announcementsChannel(db: Db, guildId: string) {
  const row = await firstRow(db, schema.discordAnnouncements, eq(schema.discordAnnouncements.guildId, guildId));
  return row?.channelId ?? null;
}

/** Chooses the guild's channel (`channelId`), or turns its announcements off (null, with why when Booth does it). */
export async function setAnnouncements(
  db: Db,
  guildId: string,
  change: { channelId: string | null; changedBy: string | null; offReason?: string | null },
  now: Date,
) {
  const values = {
    channelId: change.channelId,
    changedBy: change.changedBy,
    offReason: change.offReason ?? null,
    updatedAt: now,
  };
  await db
    .insert(schema.discordAnnouncements)
    .values({ guildId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: schema.discordAnnouncements.guildId, set: values });
}

/**
 * A DJ with followers started a song in `room` (the live room's call, services/social/notifications.ts): queued for
 * the worker when the room is a guild's that chose a channel and the bot has its token; else nothing. Never throws:
 * the song plays whatever becomes of the post.
 */
export async function announceDjStart(
  deps: AnnounceDeps,
  start: { room: Room; djUuid: string; song: Announcement["song"] },
) {
  const guild = start.room.discordGuildId;
  if (!guild || !deps.config.integrations?.discordBotToken) return;
  try {
    if (!(await announcementsChannel(deps.db, guild))) return;
    await deps.jobs.send("discord-announce", {
      startId: crypto.randomUUID(),
      roomUuid: start.room.uuid,
      djUuid: start.djUuid,
      song: start.song,
      waits: 0,
    });
  } catch (err) {
    deps.logger({ level: "error", msg: "a DJ's start was not queued for Discord", err: String(err) });
  }
}

/**
 * Claims the DJ's post in the room for this start: taken when the DJ's last post there is older than the quiet
 * time, or already this start's (its job running again). One statement, so two workers never both take it.
 */
async function claim(db: Db, job: Announcement, now: Date) {
  const quietSince = new Date(now.getTime() - ANNOUNCE_QUIET_MINUTES * 60_000);
  const t = schema.discordAnnounced;
  const taken = await db
    .insert(t)
    .values({ roomUuid: job.roomUuid, djUuid: job.djUuid, startId: job.startId, announcedAt: now })
    .onConflictDoUpdate({
      target: [t.roomUuid, t.djUuid],
      set: { startId: job.startId, announcedAt: now },
      setWhere: or(lt(t.announcedAt, quietSince), eq(t.startId, job.startId)),
    })
    .returning({ startId: t.startId });
  return taken.length === 1;
}

/** The DJ's name as Booth shows it (their profile's nickname). */
async function djName(db: Db, djUuid: string) {
  const [row] = await db
    .select({ nickname: schema.profiles.nickname, deactivatedAt: schema.users.deactivatedAt })
    .from(schema.users)
    .leftJoin(schema.profiles, eq(schema.profiles.userUuid, schema.users.uuid))
    .where(eq(schema.users.uuid, djUuid));
  return row && !row.deactivatedAt ? (row.nickname ?? "Someone") : null;
}

/** The message posted: who, where, what, and a button to the room on the web; it pings nobody. */
export function announcement(
  webUrl: string,
  dj: string,
  room: Pick<Room, "name" | "slug">,
  song: Announcement["song"],
) {
  const what = song ? `: ${plain(song.trackName)} by ${plain(song.artistName)}` : "";
  return {
    content: `🎧 **${plain(dj)}** started playing in **${plain(room.name)}**${what}`,
    allowed_mentions: { parse: [] as never[] },
    components: [
      {
        type: 1 as const,
        components: [
          {
            type: 2 as const,
            style: 5 as const,
            label: "Open the room",
            url: `${webUrl}/rooms/${encodeURIComponent(room.slug)}`,
          },
        ],
      },
    ],
  };
}

/** Thrown for an answer of Discord the queue should retry later (5xx, a network failure, waits used up). */
class DiscordUnavailable extends Error {
  override name = "DiscordUnavailable";
}

/**
 * The worker's side: posts the start unless the guild stopped, the room left the guild, or the DJ was posted there in
 * the last 30 minutes. Discord's 429 is waited out as it says (`retry_after`: the job is queued again for then),
 * its 5xx retried by the queue, and its 403 or 404 (the channel gone, the bot shut out) turns the guild's
 * announcements off, with why.
 */
export async function postDjStart(deps: AnnounceDeps, job: Announcement) {
  const { db, clock } = deps;
  const token = deps.config.integrations?.discordBotToken;
  if (!token) return;
  const room = await findRoom(db, { uuid: job.roomUuid });
  const guild = room?.discordGuildId;
  if (!room || !guild) return;
  const channel = await announcementsChannel(db, guild);
  if (!channel) return;
  const dj = await djName(db, job.djUuid);
  if (dj === null) return;
  if (!(await claim(db, job, clock.now()))) return;
  const api = (deps.config.integrations?.discordApiUrl || "https://discord.com/api/v10").replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetch(`${api}/channels/${encodeURIComponent(channel)}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        ...announcement(deps.config.webUrl, dj, room, job.song),
        // A run again after a post Discord made but did not answer makes no second message.
        nonce: job.startId.replaceAll("-", "").slice(0, 25),
        enforce_nonce: true,
      }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new DiscordUnavailable(`Discord did not answer: ${(err as Error).message}`);
  }
  if (res.ok) return;
  const text = await res.text().catch(() => "");
  if (res.status === 429 && job.waits < MAX_WAITS) {
    const after = Number(
      (safeJson(text) as { retry_after?: unknown } | null)?.retry_after ?? res.headers.get("retry-after"),
    );
    await deps.jobs.send(
      "discord-announce",
      { ...job, waits: job.waits + 1 },
      { startAfterSeconds: Math.max(1, Math.ceil(Number.isFinite(after) ? after : 1)) },
    );
    return;
  }
  if (res.status === 403 || res.status === 404) {
    // Only when the channel is still the one that refused: a manager may have chosen another meanwhile.
    await db
      .update(schema.discordAnnouncements)
      .set({ channelId: null, offReason: ANNOUNCE_OFF_REASONS.gone(res.status), updatedAt: clock.now() })
      .where(and(eq(schema.discordAnnouncements.guildId, guild), eq(schema.discordAnnouncements.channelId, channel)));
    deps.logger({ level: "warn", msg: "Discord announcements turned off", guild, status: res.status });
    return;
  }
  if (res.status === 429 || res.status >= 500)
    throw new DiscordUnavailable(`Discord answered ${res.status}: ${text.slice(0, 200)}`);
  // Anything else (a token Discord refuses, a message it will not take) would fail again: told, not retried.
  deps.logger({
    level: "error",
    msg: "Discord refused an announcement",
    guild,
    status: res.status,
    body: text.slice(0, 200),
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
