/**
 * What a Booth bot does in a live room. This file is meant to be copied: start your own bot from it, change the
 * commands, the votes, what it says. It needs nothing but a live room client (`LiveRoomClient` from
 * `@booth/sdk/live`, or anything with the same methods, such as a fake in a test).
 *
 * The default bot:
 * - sits in a DJ seat and keeps wanting one: when the booth is full, or the room's songs-per-DJ limit sends it back to
 *   the floor, it sits down again as soon as a seat is free (in a room with a waitlist, it lines up and the room
 *   seats it in turn). The room plays its songs from its queue crate.
 * - likes every song someone else plays (once per song).
 * - answers chat commands: `!help`, `!song` (what plays), `!skip` (skips the song, if it is the bot's own), `!dance`.
 * - leaves cleanly: `leave()` gives its seat back.
 *
 * To extend it: pass more `commands` (each answers the text to say, or nothing), or subclass `BoothBot` and override
 * `onSongStarted` / `onChatMessage` / `onStateChanged`.
 */
import type { ChatMessage, LiveSong, LiveState, NowPlaying, SongRef, StatelessServerMessage } from "@booth/sdk/live";

/** The part of the live room client a bot uses. */
export interface BotRoom {
  readonly state: LiveState | null;
  /** A song is named by its ids; the room plays the catalogue's song. */
  addDj(song?: SongRef): Promise<unknown>;
  removeDj(userUuid?: string): Promise<unknown>;
  joinWaitlist(): Promise<unknown>;
  leaveWaitlist(userUuid?: string): Promise<unknown>;
  skipSong(): Promise<unknown>;
  voteOnSong(songVotes: { like?: boolean; star?: boolean }): Promise<unknown>;
  sendChatMessage(params: { message: string }): Promise<unknown>;
  playOneTimeAnimation(animation: "emoji" | "jump", emoji?: string): Promise<unknown>;
  on(event: "state", listener: (state: LiveState, name: string) => void): () => void;
  on(event: "event", listener: (message: StatelessServerMessage) => void): () => void;
}

/** What a chat command gets to work with. */
export interface CommandContext {
  bot: BoothBot;
  room: BotRoom;
  /** The message that called the command, and the words after the command. */
  message: ChatMessage;
  args: string[];
}

export interface ChatCommand {
  description: string;
  /** Answers the text to say in the chat, or nothing to stay quiet. */
  run(ctx: CommandContext): Promise<string | undefined> | string | undefined;
}

export interface BotOptions {
  /** The bot's own account. */
  me: { uuid: string; nickname: string };
  /** Where the bot says what it does (default: nowhere). */
  log?: (line: string) => void;
  /** The chat command prefix (default `!`). */
  prefix?: string;
  /** Commands added to (or replacing) the default ones, by name without the prefix. */
  commands?: Record<string, ChatCommand>;
  /** Take a DJ seat and keep one (default true). */
  dj?: boolean;
  /** Like songs others play (default true). */
  likeOthers?: boolean;
}

const describeSong = (song: LiveSong) => `${song.trackName} by ${song.artistName}`;

export const defaultCommands: Record<string, ChatCommand> = {
  help: {
    description: "what I answer to",
    run: ({ bot }) =>
      `I answer to ${Object.entries(bot.commands)
        .map(([name, c]) => `${bot.prefix}${name} (${c.description})`)
        .join(", ")}.`,
  },
  song: {
    description: "what is playing",
    run: ({ room }) => {
      const playing = room.state?.nowPlaying;
      return playing ? `Now playing: ${describeSong(playing.song)}.` : "Nothing is playing right now.";
    },
  },
  skip: {
    description: "skip my song",
    run: async ({ bot, room }) => {
      if (!room.state?.nowPlaying) return "Nothing is playing right now.";
      if (bot.playingDj() !== bot.me.uuid) return "I can only skip my own songs.";
      await room.skipSong();
      return "Skipping my song.";
    },
  },
  dance: {
    description: "a little dance",
    run: async ({ room }) => {
      await room.playOneTimeAnimation("jump");
      return undefined;
    },
  },
};

export class BoothBot {
  readonly me: { uuid: string; nickname: string };
  readonly prefix: string;
  readonly commands: Record<string, ChatCommand>;
  private readonly log: (line: string) => void;
  private readonly options: BotOptions;
  private readonly unsubscribe: (() => void)[] = [];
  /** The start time of the song last seen, so each song is handled once. */
  private lastSongStart: number | null = null;
  private wantsSeat: boolean;
  private sitting: Promise<void> | null = null;
  private chatRefused = false;

  constructor(
    readonly room: BotRoom,
    options: BotOptions,
  ) {
    this.options = options;
    this.me = options.me;
    this.prefix = options.prefix ?? "!";
    this.commands = { ...defaultCommands, ...options.commands };
    this.log = options.log ?? (() => undefined);
    this.wantsSeat = options.dj ?? true;
  }

  /** Starts listening to the room (call after the client has joined). */
  start() {
    this.unsubscribe.push(
      this.room.on("state", (state, name) => this.onStateChanged(state, name)),
      this.room.on("event", (message) => {
        if (message.name === "chatMessage") void this.onChatMessage(message.params.message).catch((e) => this.fail(e));
      }),
    );
    if (this.room.state) this.onStateChanged(this.room.state, "joinRoom");
  }

  /** Gives the seat back and stops listening. */
  async leave() {
    this.wantsSeat = false;
    for (const off of this.unsubscribe.splice(0)) off();
    if (this.isDj()) {
      await this.room.removeDj().catch((e) => this.fail(e));
      this.log("left the DJ booth");
    }
    if (this.isWaiting()) {
      await this.room.leaveWaitlist().catch((e) => this.fail(e));
      this.log("left the waitlist");
    }
  }

  isDj(state = this.room.state) {
    return !!state?.djs.some((d) => d.uuid === this.me.uuid);
  }

  isWaiting(state = this.room.state) {
    return !!state?.waitlist?.includes(this.me.uuid);
  }

  /** The DJ whose song plays now (the first DJ, while something plays; none for a song of the room crate). */
  playingDj(state = this.room.state) {
    return state?.nowPlaying && !state.nowPlaying.byRoom ? state.djs[0]?.uuid : undefined;
  }

  // ---- what the bot reacts to (override these) -------------------------------------------------------------------

  protected onStateChanged(state: LiveState, _name: string) {
    const playing = state.nowPlaying;
    if (playing && playing.startTime !== this.lastSongStart) {
      this.lastSongStart = playing.startTime;
      void this.onSongStarted(playing, this.playingDj(state)).catch((e) => this.fail(e));
    }
    if (!playing) this.lastSongStart = null;
    if (!this.wantsSeat || this.isDj(state) || this.isWaiting(state)) return;
    // A room with a waitlist seats people in turn: the bot lines up (and is seated at once when a seat is free).
    if (state.settings.waitlistEnabled) void this.takeSeat();
    else if (state.djs.length < state.settings.numberOfDjs) void this.takeSeat();
  }

  protected async onSongStarted(playing: NowPlaying, djUuid: string | undefined) {
    if (djUuid === this.me.uuid) {
      this.log(`playing ${describeSong(playing.song)}`);
      return;
    }
    if (this.options.likeOthers === false) return;
    await this.room.voteOnSong({ like: true });
    this.log(`liked ${describeSong(playing.song)}`);
  }

  protected async onChatMessage(message: ChatMessage) {
    const text = message.message.trim();
    if (message.userUuid === this.me.uuid || !text.startsWith(this.prefix)) return;
    const [word = "", ...args] = text.slice(this.prefix.length).trim().split(/\s+/);
    const command = this.commands[word.toLowerCase()];
    if (!command) return;
    const reply = await command.run({ bot: this, room: this.room, message, args });
    this.log(`${message.userName}: ${message.message}${reply ? ` -> ${reply}` : ""}`);
    if (reply) await this.say(reply);
  }

  /** Says something in the chat; a room that refuses the bot's messages is said once, not at every command. */
  async say(message: string) {
    try {
      await this.room.sendChatMessage({ message });
    } catch (err) {
      const refusal = err as { statusCode?: number; message?: string };
      if (refusal.statusCode !== 403) throw err;
      if (!this.chatRefused) this.log(`cannot chat here: ${refusal.message}`);
      this.chatRefused = true;
    }
  }

  // ---- the seat ------------------------------------------------------------------------------------------------

  /**
   * Sits down in the booth, once at a time, or lines up where the room has a waitlist; a full booth is not an error
   * (the bot waits for a free seat).
   */
  takeSeat(): Promise<void> {
    const waitlist = this.room.state?.settings.waitlistEnabled === true;
    this.sitting ??= (waitlist ? this.room.joinWaitlist() : this.room.addDj())
      .then((result) => {
        const place = (result as { position?: number } | undefined)?.position;
        this.log(place ? `waiting for a seat: number ${place} on the waitlist` : "took a DJ seat");
      })
      .catch((err: { statusCode?: number; message?: string }) => {
        if (err.statusCode === 409) return; // already sitting
        if (
          err.statusCode === 403 &&
          this.room.state &&
          this.room.state.djs.length >= this.room.state.settings.numberOfDjs
        )
          this.log(`waiting for a seat: ${err.message}`);
        else {
          // Not allowed to DJ here (the room's DJ rules): stop asking at every change.
          this.wantsSeat = false;
          this.fail(err);
        }
      })
      .finally(() => {
        this.sitting = null;
      });
    return this.sitting;
  }

  private fail(err: unknown) {
    this.log(`error: ${(err as Error)?.message ?? String(err)}`);
  }
}
