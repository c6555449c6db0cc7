import {
  ANNOUNCE_SUBCOMMANDS,
  BOOTH_COMMAND,
  BOOTH_SUBCOMMANDS,
  EPHEMERAL,
  GUILD_MANAGER_PERMISSIONS,
  InteractionResponseType,
  InteractionType,
} from "@booth/sdk/discord";
import { z } from "@hono/zod-openapi";
import type { AppDeps } from "../../deps.ts";
import { findRoom, type Room, roomKey } from "./access.ts";
import { plain, setAnnouncements } from "./discord-announce.ts";
import { saveRoomChanges } from "./room-changes.ts";
import { guildRooms } from "./room-lists.ts";

/** An option as Discord sends it: a subcommand (group) with its own options, or a value. */
interface InteractionOption {
  name: string;
  value?: unknown;
  options?: InteractionOption[] | undefined;
}
/** What the bot reads of an interaction (its contract: discord-bot.routes.ts). */
export interface Interaction {
  type: number;
  guild_id?: string | undefined;
  data?: { name: string; options?: InteractionOption[] | undefined } | undefined;
  member?: { permissions?: string | undefined; user?: { id?: string | undefined } | undefined } | undefined;
}

interface LinkButton {
  type: 2;
  style: 5;
  label: string;
  url: string;
}
export interface InteractionAnswer {
  type: number;
  data?: {
    content: string;
    flags?: number;
    components?: { type: 1; components: LinkButton[] }[];
    allowed_mentions: { parse: never[] };
  };
}

type BotDeps = Pick<AppDeps, "db" | "clock" | "liveRooms" | "config">;

export const DISCORD_BOT_MESSAGES = {
  unsupported: "Booth answers only its /booth commands.",
  unknown:
    "Booth does not know this command: a server manager registers Booth's commands again (booth discord register-commands).",
  notInGuild: "Use this command in a server: Booth's rooms here are the server's.",
  notManager: "Only the server's managers (Manage Server or Administrator) attach rooms to it.",
  notManagerAnnounce: "Only the server's managers (Manage Server or Administrator) choose where Booth posts.",
  noToken:
    "Booth cannot post to a channel yet: its operator sets DISCORD_BOT_TOKEN (the bot's token) on the edge and the worker.",
  announceOn: (channel: string) =>
    `Booth will post here when a DJ with followers starts playing in one of this server's rooms: <#${channel}> (at most once per DJ per room every 30 minutes). The bot needs View Channel and Send Messages there.`,
  announceOff: "Booth no longer posts DJs starting to play in this server's rooms.",
  noRoom: (slug: string) => `Booth has no room ${slug}.`,
  privateRoom: "A private room is not attached from Discord: its owners share it on Booth.",
  otherGuild: "This room belongs to another server.",
  unreachable: "The live rooms could not be reached: here is who is in each room, not what plays.",
  roomUnreachable: "The live room could not be reached: try again in a moment.",
  noRooms: "This server has no Booth rooms yet: a manager attaches one with /booth open.",
} as const;

/** A message for the channel; mentions in room or song names never ping anyone. */
const message = (content: string, extra: { flags?: number; components?: LinkButton[] } = {}): InteractionAnswer => ({
  type: InteractionResponseType.channelMessage,
  data: {
    content,
    ...(extra.flags ? { flags: extra.flags } : {}),
    ...(extra.components ? { components: [{ type: 1, components: extra.components }] } : {}),
    allowed_mentions: { parse: [] },
  },
});
/** An answer only the person who used the command sees: a refusal, an error. */
const toCaller = (content: string) => message(content, { flags: EPHEMERAL });

const roomUrl = (deps: BotDeps, room: Room) => `${deps.config.webUrl}/rooms/${encodeURIComponent(room.slug)}`;
const openButton = (deps: BotDeps, room: Room): LinkButton => ({
  type: 2,
  style: 5,
  label: "Open the room",
  url: roomUrl(deps, room),
});

/** The song a live room's state says plays, as `Track by Artist`, or null. */
const NowPlaying = z.object({
  nowPlaying: z.object({ song: z.object({ trackName: z.string(), artistName: z.string() }) }).nullable(),
});
function playing(state: unknown) {
  const song = NowPlaying.safeParse(state).data?.nowPlaying?.song;
  return song ? `${plain(song.trackName)} by ${plain(song.artistName)}` : null;
}

const people = (n: number) => (n === 1 ? "1 person" : `${n} people`);
/** Discord's limit on a message is 2000 characters: the rooms listed stop before it. */
const MAX_LISTED = 20;

async function listRooms(deps: BotDeps, guild: string): Promise<InteractionAnswer> {
  const rooms = await guildRooms(deps.db, guild);
  if (!rooms.length) return message(DISCORD_BOT_MESSAGES.noRooms);
  const shown = rooms.slice(0, MAX_LISTED);
  const states = await Promise.allSettled(shown.map((room) => deps.liveRooms.state(room.uuid)));
  const reached = states.every((s) => s.status === "fulfilled");
  const lines = shown.map((room, i) => {
    const state = states[i];
    const song = state?.status === "fulfilled" ? playing(state.value) : null;
    const plays = reached ? ` · ${song ? `▶ ${song}` : "nothing plays"}` : "";
    return `**${plain(room.name)}** · ${people(room.numberOfUsersInRoom)}${plays} · <${roomUrl(deps, room)}>`;
  });
  if (rooms.length > shown.length) lines.push(`…and ${rooms.length - shown.length} more.`);
  if (!reached) lines.push(DISCORD_BOT_MESSAGES.unreachable);
  return message(lines.join("\n"));
}

/** A room anyone may ask about here: a public one, or one of this guild's. */
async function visibleRoom(deps: BotDeps, slug: string, guild: string | undefined) {
  const room = await findRoom(deps.db, roomKey(slug));
  return room && (room.type !== "PRIVATE" || (guild && room.discordGuildId === guild)) ? room : null;
}

async function nowPlaying(deps: BotDeps, slug: string, guild: string | undefined): Promise<InteractionAnswer> {
  const room = await visibleRoom(deps, slug, guild);
  if (!room) return toCaller(DISCORD_BOT_MESSAGES.noRoom(plain(slug)));
  let state: unknown;
  try {
    state = await deps.liveRooms.state(room.uuid);
  } catch {
    return toCaller(DISCORD_BOT_MESSAGES.roomUnreachable);
  }
  const song = playing(state);
  const name = plain(room.name);
  return message(song ? `Now playing in **${name}**: ${song}` : `Nothing plays in **${name}** right now.`, {
    components: [openButton(deps, room)],
  });
}

const isManager = (permissions: string | undefined) => {
  const bits = BigInt(permissions ?? "0");
  return (bits & (GUILD_MANAGER_PERMISSIONS.administrator | GUILD_MANAGER_PERMISSIONS.manageGuild)) !== 0n;
};

async function openRoom(
  deps: BotDeps,
  slug: string,
  guild: string,
  permissions: string | undefined,
): Promise<InteractionAnswer> {
  if (!isManager(permissions)) return toCaller(DISCORD_BOT_MESSAGES.notManager);
  const room = await findRoom(deps.db, roomKey(slug));
  if (!room) return toCaller(DISCORD_BOT_MESSAGES.noRoom(plain(slug)));
  if (room.type === "PRIVATE") return toCaller(DISCORD_BOT_MESSAGES.privateRoom);
  if (room.discordGuildId && room.discordGuildId !== guild) return toCaller(DISCORD_BOT_MESSAGES.otherGuild);
  if (room.discordGuildId !== guild) await saveRoomChanges(deps, room, { discordGuildId: guild });
  return message(`**${plain(room.name)}** is one of this server's rooms: /booth rooms lists it.`, {
    components: [openButton(deps, room)],
  });
}

/** `/booth announce on channel:<#channel>` and `/booth announce off`: the guild's managers only, answered to them. */
async function announce(
  deps: BotDeps,
  guild: string,
  interaction: Interaction,
  sub: InteractionOption | undefined,
): Promise<InteractionAnswer> {
  if (!isManager(interaction.member?.permissions)) return toCaller(DISCORD_BOT_MESSAGES.notManagerAnnounce);
  const changedBy = interaction.member?.user?.id ?? null;
  const now = deps.clock.now();
  switch (sub?.name) {
    case ANNOUNCE_SUBCOMMANDS.on: {
      const channel = sub.options?.find((o) => o.name === "channel")?.value;
      if (typeof channel !== "string" || !/^\d{1,25}$/.test(channel)) return toCaller(DISCORD_BOT_MESSAGES.unknown);
      if (!deps.config.integrations?.discordBotToken) return toCaller(DISCORD_BOT_MESSAGES.noToken);
      await setAnnouncements(deps.db, guild, { channelId: channel, changedBy }, now);
      return toCaller(DISCORD_BOT_MESSAGES.announceOn(channel));
    }
    case ANNOUNCE_SUBCOMMANDS.off:
      await setAnnouncements(deps.db, guild, { channelId: null, changedBy }, now);
      return toCaller(DISCORD_BOT_MESSAGES.announceOff);
    case BOOTH_SUBCOMMANDS.announce:
      if (!guild) return toCaller(DISCORD_BOT_MESSAGES.notInGuild);
      return announce(deps, guild, interaction, sub?.options?.[0]);
    default:
      return toCaller(DISCORD_BOT_MESSAGES.unknown);
  }
}

/** The answer to an interaction Discord signed: PONG to a PING, a message to a /booth command. */
export async function answerInteraction(deps: BotDeps, interaction: Interaction): Promise<InteractionAnswer> {
  if (interaction.type === InteractionType.ping) return { type: InteractionResponseType.pong };
  if (interaction.type !== InteractionType.applicationCommand) return toCaller(DISCORD_BOT_MESSAGES.unsupported);
  const sub = interaction.data?.name === BOOTH_COMMAND ? interaction.data.options?.[0] : undefined;
  const slugOption = sub?.options?.find((o) => o.name === "room")?.value;
  const slug = typeof slugOption === "string" ? slugOption.trim() : "";
  const guild = interaction.guild_id;
  switch (sub?.name) {
    case BOOTH_SUBCOMMANDS.rooms:
      return guild ? listRooms(deps, guild) : toCaller(DISCORD_BOT_MESSAGES.notInGuild);
    case BOOTH_SUBCOMMANDS.playing:
      return slug ? nowPlaying(deps, slug, guild) : toCaller(DISCORD_BOT_MESSAGES.unknown);
    case BOOTH_SUBCOMMANDS.open:
      if (!guild) return toCaller(DISCORD_BOT_MESSAGES.notInGuild);
      return slug
        ? openRoom(deps, slug, guild, interaction.member?.permissions)
        : toCaller(DISCORD_BOT_MESSAGES.unknown);
    case BOOTH_SUBCOMMANDS.announce:
      if (!guild) return toCaller(DISCORD_BOT_MESSAGES.notInGuild);
      return announce(deps, guild, interaction, sub?.options?.[0]);
    default:
      return toCaller(DISCORD_BOT_MESSAGES.unknown);
  }
}
