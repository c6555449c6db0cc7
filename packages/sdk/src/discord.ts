/**
 * Booth's Discord bot, as both its sides see it: the slash commands the CLI registers with Discord
 * (`booth discord register-commands`) and the edge answers at its interactions endpoint (decision 0025). One module,
 * so the commands registered and the commands answered cannot drift.
 */

/** Discord's interaction types Booth reads. */
export const InteractionType = { ping: 1, applicationCommand: 2 } as const;

/** Discord's interaction response types Booth answers with. */
export const InteractionResponseType = { pong: 1, channelMessage: 4 } as const;

/** A message only the person who used the command sees. */
export const EPHEMERAL = 1 << 6;

/** The permission bits of a guild member that let them attach rooms to the guild. */
export const GUILD_MANAGER_PERMISSIONS = { administrator: 1n << 3n, manageGuild: 1n << 5n } as const;

/** Discord's application command option types Booth uses. */
const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;
const STRING = 3;
const CHANNEL = 7;
/** Discord's channel types a post can go to: a text channel, an announcement channel. */
const GUILD_TEXT = 0;
const GUILD_ANNOUNCEMENT = 5;

/** The `room` option: a room's slug, as in https://booth.example/rooms/<slug>. */
const roomOption = {
  type: STRING,
  name: "room",
  description: "The room's slug, as in its address (/rooms/<slug>)",
  required: true,
  min_length: 1,
  max_length: 100,
} as const;

/** The name of Booth's one slash command; its subcommands are `BOOTH_SUBCOMMANDS`. */
export const BOOTH_COMMAND = "booth";
export const BOOTH_SUBCOMMANDS = { rooms: "rooms", playing: "playing", open: "open", announce: "announce" } as const;
/** `/booth announce on channel:<#channel>` chooses the channel, `/booth announce off` stops. */
export const ANNOUNCE_SUBCOMMANDS = { on: "on", off: "off" } as const;

/** Discord's permission bits the bot needs in the announcements' channel. */
export const ANNOUNCE_PERMISSIONS = { viewChannel: 1n << 10n, sendMessages: 1n << 11n } as const;

/**
 * The command definitions, as Discord's bulk overwrite (`PUT /applications/{id}/commands`) takes them: one `booth`
 * command for guilds (context 0: a guild; installed to the guild: integration type 0), with its subcommands.
 */
export const DISCORD_COMMANDS = [
  {
    name: BOOTH_COMMAND,
    type: 1,
    description: "Booth's rooms in this server",
    contexts: [0],
    integration_types: [0],
    options: [
      {
        type: SUB_COMMAND,
        name: BOOTH_SUBCOMMANDS.rooms,
        description: "This server's rooms: who is in each, what plays",
      },
      {
        type: SUB_COMMAND,
        name: BOOTH_SUBCOMMANDS.playing,
        description: "The song playing in a room, with a link to it",
        options: [roomOption],
      },
      {
        type: SUB_COMMAND,
        name: BOOTH_SUBCOMMANDS.open,
        description: "Attach a room to this server (server managers)",
        options: [roomOption],
      },
      {
        type: SUB_COMMAND_GROUP,
        name: BOOTH_SUBCOMMANDS.announce,
        description: "Post followed DJs starting to play in this server's rooms (server managers)",
        options: [
          {
            type: SUB_COMMAND,
            name: ANNOUNCE_SUBCOMMANDS.on,
            description: "Post them to a channel (the bot needs View Channel and Send Messages there)",
            options: [
              {
                type: CHANNEL,
                name: "channel",
                description: "The channel to post to",
                required: true,
                channel_types: [GUILD_TEXT, GUILD_ANNOUNCEMENT],
              },
            ],
          },
          { type: SUB_COMMAND, name: ANNOUNCE_SUBCOMMANDS.off, description: "Stop posting them" },
        ],
      },
    ],
  },
] as const;
