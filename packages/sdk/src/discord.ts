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
const STRING = 3;

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
export const BOOTH_SUBCOMMANDS = { rooms: "rooms", playing: "playing", open: "open" } as const;

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
    ],
  },
] as const;
