import { type Db, schema } from "@booth/db";
import { and, asc, eq, notExists } from "drizzle-orm";
import type { User } from "../../lib/auth.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { forbidden, HttpError } from "../../lib/errors.ts";
import type { IntegrationsConfig } from "../../ports/integrations.ts";
import { discordGuildIds, discordSettings, discordUser, linkedUserUuid } from "../user/public.ts";
import type { Room } from "./access.ts";
import { createGuildRoom } from "./room-changes.ts";

/**
 * The Discord Activity's rooms (decision 0028): one Activity instance, in one guild's voice channel, is one Booth room.
 * The first person to start the Activity in a channel decides which: the guild's attached room that no other channel
 * plays in (the oldest), else a new guild room they own. The row of the channel is the primary key of
 * `discord_activity_rooms`, so two first starts at once make one room: the second's transaction fails on it, its room
 * is rolled back, and it answers the first's.
 */

export const ACTIVITY_MESSAGES = {
  notLinked: "Sign in with this Discord account first: it is not linked to your Booth account.",
  notMember: "You are not a member of this Discord guild.",
} as const;

/**
 * Checks that the caller is the Discord user behind `accessToken` (a token Discord issued to Booth's app, linked to
 * the caller's Booth account) and a member of the guild: only the guild's own people decide its channels' rooms.
 */
export async function checkGuildMember(
  db: Db,
  integrations: IntegrationsConfig | undefined,
  user: User,
  guild: string,
  accessToken: string,
) {
  const settings = discordSettings(integrations);
  const discord = await discordUser(settings, { accessToken });
  if ((await linkedUserUuid(db, discord.id)) !== user.uuid) throw forbidden(ACTIVITY_MESSAGES.notLinked);
  if (!(await discordGuildIds(settings, accessToken)).includes(guild)) throw forbidden(ACTIVITY_MESSAGES.notMember);
}

async function channelRoom(db: Db, guild: string, channel: string): Promise<Room | null> {
  const [row] = await db
    .select({ room: schema.rooms })
    .from(schema.discordActivityRooms)
    .innerJoin(schema.rooms, eq(schema.rooms.uuid, schema.discordActivityRooms.roomUuid))
    .where(and(eq(schema.discordActivityRooms.guildId, guild), eq(schema.discordActivityRooms.channelId, channel)))
    .limit(1);
  return row?.room ?? null;
}

/** The room of a guild's voice channel, decided now when it has none; `opened`: this call decided it. */
export async function activityRoom(
  db: Db,
  user: User,
  at: { guild: string; channel: string; name: string },
  now: Date,
): Promise<{ room: Room; opened: boolean }> {
  const known = await channelRoom(db, at.guild, at.channel);
  if (known) return { room: known, opened: false };
  try {
    return await db.transaction(async (tx) => {
      const [attached] = await tx
        .select()
        .from(schema.rooms)
        .where(
          and(
            eq(schema.rooms.discordGuildId, at.guild),
            notExists(
              tx
                .select({ one: schema.discordActivityRooms.roomUuid })
                .from(schema.discordActivityRooms)
                .where(eq(schema.discordActivityRooms.roomUuid, schema.rooms.uuid)),
            ),
          ),
        )
        .orderBy(asc(schema.rooms.createdAt), asc(schema.rooms.uuid))
        .limit(1);
      const room = attached ?? (await createGuildRoom(tx as unknown as Db, user, at.guild, at.name, now));
      await tx
        .insert(schema.discordActivityRooms)
        .values({ guildId: at.guild, channelId: at.channel, roomUuid: room.uuid, createdAt: now });
      return { room, opened: true };
    });
  } catch (err) {
    // Someone else started the Activity in this channel at the same moment: theirs is the room.
    if (!isUniqueViolation(err)) throw err;
    const theirs = await channelRoom(db, at.guild, at.channel);
    if (!theirs) throw new HttpError(409, "The channel's room changed meanwhile: try again.");
    return { room: theirs, opened: false };
  }
}
