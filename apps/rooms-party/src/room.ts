/**
 * One live room, between the pure reducer and the platform: it holds the state, talks to sockets through the
 * `Socket` interface, keeps the state in a `StateStore`, wakes on alarms and performs the reducer's effects against
 * the edge. The Worker's server.ts only adapts its connections, storage and alarms to this.
 */
import type { EdgeEvent } from "@booth/sdk/live/edge-events";
import {
  CloseCode,
  type JoinResult,
  type LiveSong,
  LiveSongSchema,
  type ParsedClientMessage,
  parseClientMessage,
  type ReplyMessage,
  type RoomSettings,
  type ServerMessage,
  type SongRef,
} from "@booth/sdk/live/protocol";
import type { Claims } from "./auth.ts";
import { type Edge, EdgeError } from "./edge.ts";
import {
  DEFAULT_CONFIG,
  type Effect,
  initialState,
  type JoiningUser,
  joinView,
  MESSAGES,
  nextWakeAt,
  owedAfterRestart,
  type Reply,
  type RoomAction,
  type RoomClientAction,
  type RoomConfig,
  type RoomState,
  reduce,
  roomRules,
} from "./reducer.ts";
import type { StateStore } from "./storage.ts";

/** A connected client. `claims` were verified when it connected; `token` is passed on to the edge at join. */
export interface Socket {
  readonly id: string;
  readonly claims: Claims;
  readonly token: string;
  /** The user a socket that outlived the room's memory (hibernation) had joined as. */
  readonly joinedAs?: string | null;
  /** Remember that this socket joined as `userUuid`, where the platform keeps it beyond the room's memory. */
  joined?(userUuid: string): void;
  send(text: string): void;
  close(code: number, reason: string): void;
}

export interface RoomHost {
  store: StateStore;
  /** Wake the room (onAlarm) at this time; null: no alarm needed. */
  setAlarm(at: number | null): Promise<void>;
  log(entry: Record<string, unknown>): void;
}

export class LiveRoom {
  private state: RoomState | null = null;
  private readonly sockets = new Map<string, Socket>();
  /** Sockets that joined, by id, with the user they are. */
  private readonly joined = new Map<string, string>();
  /**
   * The joined sockets that are open, with their users: who a broadcast goes to. Built when first needed after a
   * socket came, joined or went, not for every message.
   */
  private listeners: { socket: Socket; user: string }[] | null = null;
  private saving: Promise<void> = Promise.resolve();
  /** The state the next save will write, and the users changed in place since the last save began; null: none waits. */
  private unsaved: { state: RoomState; inPlace: Set<string> } | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  /** Per socket, the message being handled: the next waits for it. */
  private readonly inboxes = new Map<string, Promise<unknown>>();
  /** Messages received from clients since the last live-state report, which carries them to the edge (metrics). */
  private received = 0;
  /** Per DJ, the last queue request to the edge: the next waits for it (see `inQueueOrder`). */
  private readonly queueCalls = new Map<string, Promise<unknown>>();
  /**
   * The room's settings, numbered in the order the room set out to get them (a read from the edge when it is asked
   * for, a change the edge announces when it comes), and the number of the last applied. A read asked for before a
   * change and answered after it holds the settings from before the change: it is not applied over them.
   */
  private settingsAsked = 0;
  private settingsApplied = 0;

  constructor(
    readonly roomUuid: string,
    private readonly host: RoomHost,
    private readonly edge: Edge,
    readonly config: RoomConfig = DEFAULT_CONFIG,
    private readonly clock: () => number = Date.now,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /**
   * Hydrates from storage, with the sockets still open (a room woken from hibernation keeps its sockets; a restarted
   * one has none). A member without an open socket that joined is disconnected: their grace period starts now.
   */
  async start(open: Socket[] = []) {
    for (const socket of open) {
      this.sockets.set(socket.id, socket);
      if (socket.joinedAs) this.joined.set(socket.id, socket.joinedAs);
    }
    this.listeners = null;
    const stored = await this.host.store.load();
    if (!stored) return;
    const now = this.clock();
    const present = new Set(this.joined.values());
    const members = Object.fromEntries(
      Object.entries(stored.members).map(([uuid, m]) => [
        uuid,
        m.connected && !present.has(uuid) ? { ...m, connected: false, disconnectedAt: now } : m,
      ]),
    );
    // A read of the room crate the old memory waited for will never be answered: it is owed.
    const roomCrate = owedAfterRestart(stored.roomCrate, now);
    this.state = { ...stored, members, ...(roomCrate ? { roomCrate } : {}) };
    await this.host.store.save(this.state);
    await this.host.setAlarm(nextWakeAt(this.state, this.config));
  }

  get current() {
    return this.state;
  }

  /** Everything in flight (effects, saves) has settled; for tests. */
  async idle() {
    for (;;) {
      while (this.pending.size) await Promise.allSettled([...this.pending]);
      const saving = this.saving;
      await saving;
      if (saving === this.saving && !this.pending.size) return;
    }
  }

  connect(socket: Socket) {
    this.sockets.set(socket.id, socket);
    this.listeners = null;
  }

  disconnect(socketId: string) {
    this.sockets.delete(socketId);
    const userUuid = this.joined.get(socketId);
    this.joined.delete(socketId);
    this.listeners = null;
    if (userUuid && ![...this.joined.values()].includes(userUuid)) this.dispatch({ type: "disconnected", userUuid });
  }

  /** One socket's messages are handled in the order sent, even while one of them waits for the edge. */
  message(socketId: string, raw: string): Promise<void> {
    this.received++;
    const handled = (this.inboxes.get(socketId) ?? Promise.resolve()).then(() => this.handle(socketId, raw));
    const settled = handled.catch(() => undefined);
    this.inboxes.set(socketId, settled);
    void settled.then(() => {
      if (this.inboxes.get(socketId) === settled) this.inboxes.delete(socketId);
    });
    return handled;
  }

  private async handle(socketId: string, raw: string) {
    const socket = this.sockets.get(socketId);
    if (!socket) return;
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) {
      this.reply(socket, { requestId: parsed.requestId, ok: false, statusCode: 400, message: parsed.message });
      return;
    }
    const { message } = parsed;
    if (message.action === "joinRoom") {
      const { requestId } = message;
      const refused = await this.join(socket, message.params, (result) =>
        this.reply(socket, { requestId, ok: true, result }),
      );
      if (refused) this.reply(socket, { requestId, ...refused });
      return;
    }
    const userUuid = this.joined.get(socketId);
    if (!userUuid || !this.state) {
      this.reply(socket, { requestId: message.requestId, ok: false, statusCode: 403, message: "Join the room first." });
      return;
    }
    const request = await this.withSongs(userUuid, message);
    if ("ok" in request) {
      this.reply(socket, { requestId: message.requestId, ...request });
      return;
    }
    const reply = this.dispatch({ type: "client", userUuid, request, id: this.newId() });
    this.reply(socket, { requestId: message.requestId, ...reply });
  }

  /**
   * The client's action with the songs it names looked up through the edge: the reducer only ever sees the
   * catalogue's songs. Anything else the client wrote about a song was dropped when the message was parsed.
   */
  private async withSongs(
    userUuid: string,
    message: Exclude<ParsedClientMessage, { action: "joinRoom" }>,
  ): Promise<RoomClientAction | Refusal> {
    switch (message.action) {
      case "addDj": {
        const ref = message.params.song;
        if (!ref) return { action: "addDj", params: {} };
        return this.lookUp(userUuid, [ref], ([song]) => ({ action: "addDj", params: song ? { song } : {} }));
      }
      case "updateNextSong": {
        const ref = message.params.song;
        if (!ref) return { action: "updateNextSong", params: { song: null } };
        return this.lookUp(userUuid, [ref], ([song]) => ({ action: "updateNextSong", params: { song: song ?? null } }));
      }
      case "sendChatMessage": {
        const { songs: refs, ...rest } = message.params;
        if (!refs?.length) return { action: "sendChatMessage", params: rest };
        return this.lookUp(userUuid, refs, (songs) => ({ action: "sendChatMessage", params: { ...rest, songs } }));
      }
      case "grabSong":
        return this.grab(userUuid, message.params.crate);
      default:
        return message;
    }
  }

  /**
   * A grab: the song playing goes into the caller's crate through the edge (which checks the crate is theirs), then
   * the reducer counts it. A grab the room would refuse anyway (nothing playing, a guest) costs the edge nothing.
   */
  private async grab(userUuid: string, crate: string): Promise<RoomClientAction | Refusal> {
    const songId = this.state?.live.nowPlaying?.song.songId ?? "";
    const build = (added: boolean): RoomClientAction => ({ action: "grabSong", params: { songId, added } });
    const refused = this.refusedAnyway(userUuid, build(false));
    if (refused) return refused;
    if (!songId) return { ok: false, statusCode: 409, message: MESSAGES.nothingPlaying };
    try {
      return build((await this.edge.addToCrate(userUuid, crate, songId)).added);
    } catch (err) {
      if (err instanceof EdgeError) return { ok: false, statusCode: err.status, message: err.message };
      throw err;
    }
  }

  /**
   * The room's refusal of an action as it stands now (a dry run of the reducer, nothing kept), or null: an action the
   * room would refuse anyway is answered before the edge is asked anything for it.
   */
  private refusedAnyway(userUuid: string, request: RoomClientAction): Refusal | null {
    if (!this.state) return null;
    const dry = reduce(this.state, { type: "client", userUuid, request, id: "" }, this.clock(), this.config);
    return dry.reply.ok ? null : dry.reply;
  }

  private async lookUp(
    userUuid: string,
    refs: SongRef[],
    build: (songs: LiveSong[]) => RoomClientAction,
  ): Promise<RoomClientAction | Refusal> {
    // An action the room refuses whatever the song (a full booth, chat off, too many messages) costs the edge nothing.
    const blank = refs.map((r) => ({ songId: r.songId, trackName: "", artistName: "", duration: 0 }));
    const refused = this.refusedAnyway(userUuid, build(blank));
    if (refused) return refused;
    try {
      const songs = await Promise.all(refs.map((ref) => this.edge.song(userUuid, ref)));
      const shaped = songs.map(liveSong);
      if (shaped.some((s) => s === null))
        return { ok: false, statusCode: 502, message: "The edge answered a song this room cannot read." };
      return build(shaped as LiveSong[]);
    } catch (err) {
      if (err instanceof EdgeError) return { ok: false, statusCode: err.status, message: err.message };
      throw err;
    }
  }

  /**
   * Admits a socket's user, and answers them the room with `admitted` at once: the room's next actions change
   * `allUserData` in place, and the answer must show the room at its seq. Resolves to the refusal otherwise.
   */
  private async join(
    socket: Socket,
    params: { roomUuid: string; password?: string; guestPassword?: string },
    admitted: (result: JoinResult) => void,
  ): Promise<Refusal | null> {
    if (params.roomUuid.toLowerCase() !== this.roomUuid.toLowerCase())
      return { ok: false, statusCode: 400, message: "roomUuid: this connection is to another room." };
    const { claims } = socket;
    if (claims.type === "service") return { ok: false, statusCode: 403, message: "Services do not join rooms." };
    let settings: RoomSettings;
    let asked = 0;
    let profile: Record<string, unknown> | null;
    try {
      const body = {
        ...(params.password !== undefined ? { password: params.password } : {}),
        ...(params.guestPassword !== undefined ? { guestPassword: params.guestPassword } : {}),
      };
      // The edge admits with the user's own token, and answers them only the roles they may see: the room reads
      // every role in force, sanctions included, with its service token.
      asked = ++this.settingsAsked;
      [, settings] = await Promise.all([
        this.edge.join(this.roomUuid, socket.token, body),
        this.edge.roomSettings(this.roomUuid),
      ]);
      profile = claims.type === "guest" ? null : await this.edge.profile(claims.sub);
    } catch (err) {
      if (err instanceof EdgeError) return { ok: false, statusCode: err.status, message: err.message };
      throw err;
    }
    if (!this.sockets.has(socket.id)) return { ok: false, statusCode: 410, message: "The connection closed." };
    const user: JoiningUser = {
      uuid: claims.sub,
      tokenRole: claims.type,
      globalRoles: claims.roles,
      badges: claims.badges,
      verified: !!profile?.verifiedAt,
      profile: profileView(claims.sub, profile),
    };
    if (!this.state) {
      this.state = initialState(settings);
      this.settingsApplied = asked;
    }
    const reply = this.dispatch({
      type: "join",
      user,
      settings: this.newest(asked, settings) ?? roomRules(this.state),
    });
    if (!reply.ok) return reply;
    this.joined.set(socket.id, claims.sub);
    this.listeners = null;
    socket.joined?.(claims.sub);
    admitted(joinView(this.state, this.clock(), claims.sub));
    return null;
  }

  /** The edge tells the room about a change made over REST. */
  async edgeEvent(event: EdgeEvent) {
    switch (event.type) {
      case "updateRoomSettings": {
        if (!this.state) return;
        const settings = this.newest(++this.settingsAsked, event.settings);
        if (settings) this.dispatch({ type: "settings", settings });
        return;
      }
      case "updateRoles": {
        if (!this.state) return;
        const asked = ++this.settingsAsked;
        const settings = this.newest(asked, await this.edge.roomSettings(this.roomUuid));
        if (this.state && settings) this.dispatch({ type: "settings", settings });
        return;
      }
      case "kickUser": {
        const reason = event.reason ?? MESSAGES.kicked;
        if (this.state) this.dispatch({ type: "kick", userUuid: event.userUuid, reason });
        // Someone joining right now is not in the state yet: close their sockets all the same, and forget them now
        // rather than when the close completes, so a join still waiting on the edge finds its socket gone.
        for (const socket of [...this.sockets.values()])
          if (socket.claims.sub === event.userUuid) {
            this.sockets.delete(socket.id);
            this.joined.delete(socket.id);
            this.listeners = null;
            socket.close(CloseCode.kicked, reason);
          }
        return;
      }
      case "resetRoom": {
        const settings = this.state ? roomRules(this.state) : await this.edge.roomSettings(this.roomUuid);
        this.dispatch({ type: "reset", settings });
        this.state = null;
        this.saving = this.saving.then(() => this.host.store.clear());
        await this.saving;
        await this.host.setAlarm(null);
        return;
      }
      case "clearChat":
        if (this.state) this.dispatch({ type: "clearChat" });
        return;
      case "showConsumable":
        // Nobody in the room: nobody to show it to.
        if (this.state) this.dispatch({ type: "consumable", buyer: event.buyer, consumable: event.consumable });
        return;
      case "queueChanged":
        if (this.state) this.dispatch({ type: "queueChanged", userUuid: event.userUuid });
        return;
    }
  }

  /** `settings`, numbered `asked`, when nothing newer was applied since it was asked for; else null. */
  private newest(asked: number, settings: RoomSettings): RoomSettings | null {
    if (asked < this.settingsApplied) return null;
    this.settingsApplied = asked;
    return settings;
  }

  /** The public state for the edge's GET, or null when nobody is in the room. */
  publicState() {
    if (!this.state || Object.keys(this.state.members).length === 0) return null;
    return { ...this.state.live, seq: this.state.seq };
  }

  alarm() {
    if (this.state) this.dispatch({ type: "tick" });
  }

  private dispatch(action: RoomAction): Reply {
    if (!this.state) return { ok: false, statusCode: 409, message: "The room is not running." };
    const before = this.state;
    // The room keeps only the state it is answered: the reducer may change `allUserData` in place.
    const out = reduce(before, action, this.clock(), this.config, { inPlace: true });
    this.state = out.state;
    this.listeners ??= [...this.joined.entries()].flatMap(([id, user]) => {
      const s = this.sockets.get(id);
      return s ? [{ socket: s, user }] : [];
    });
    const joinedSockets = this.listeners;
    for (const message of out.stateful) {
      const text = JSON.stringify(message satisfies ServerMessage);
      for (const { socket } of joinedSockets) socket.send(text);
    }
    for (const { to, message } of out.stateless) {
      const text = JSON.stringify(message satisfies ServerMessage);
      for (const { socket, user } of joinedSockets) if (to === "all" || to.userUuid === user) socket.send(text);
    }
    for (const { userUuid, code, reason } of out.close)
      for (const socket of this.sockets.values())
        if (socket.claims.sub === userUuid) {
          this.joined.delete(socket.id);
          this.listeners = null;
          socket.close(code, reason);
        }
    if (out.closeAll)
      for (const socket of this.sockets.values()) {
        this.joined.delete(socket.id);
        this.listeners = null;
        socket.close(CloseCode.reset, "The room was reset.");
      }
    if (out.state !== before) {
      const { state, writtenInPlace } = out;
      this.save(state, writtenInPlace);
      // The alarm follows the song, the members' grace periods, the roles, the DJs' idle clocks and a room crate read
      // owed: a listener's vote moves none of them, and a room of thousands would otherwise look at every member on
      // every vote.
      if (
        state.members !== before.members ||
        state.live.nowPlaying !== before.live.nowPlaying ||
        state.live.settings !== before.live.settings ||
        state.sanctions !== before.sanctions ||
        state.djMeta !== before.djMeta ||
        state.roomCrate !== before.roomCrate
      )
        this.track(this.host.setAlarm(nextWakeAt(state, this.config)));
    }
    for (const effect of out.effects) this.track(this.perform(effect));
    return out.reply;
  }

  /**
   * Writes `state` after the saves before it. While a save is on its way, the states that come meanwhile wait for it
   * together: the next save writes the newest of them, with every user any of them changed in place. A storm of votes
   * is then written in a few saves, not one per vote, and a save never writes a state older than one it follows.
   */
  private save(state: RoomState, writtenInPlace: readonly string[]) {
    if (this.unsaved) {
      this.unsaved.state = state;
      for (const uuid of writtenInPlace) this.unsaved.inPlace.add(uuid);
      return;
    }
    const next = { state, inPlace: new Set(writtenInPlace) };
    this.unsaved = next;
    this.saving = this.saving
      .then(() => {
        this.unsaved = null;
        return this.host.store.save(next.state, [...next.inPlace]);
      })
      .catch((err) => this.host.log({ level: "error", msg: "room state not saved", error: String(err) }));
  }

  private track(work: Promise<unknown>) {
    const p = work.catch((err) => this.host.log({ level: "warn", msg: "room effect failed", error: String(err) }));
    this.pending.add(p);
    p.finally(() => this.pending.delete(p));
  }

  private get slug() {
    return this.state?.live.settings.slug ?? this.roomUuid;
  }

  private async perform(effect: Effect) {
    const edge = this.edge;
    switch (effect.type) {
      case "presenceJoined":
        return edge.presenceJoined(this.roomUuid, effect.userUuid);
      case "presenceLeft":
        return edge.presenceLeft(this.roomUuid, effect.userUuid);
      case "loadQueue":
        return this.inQueueOrder(effect.userUuid, () => edge.upcomingQueue(effect.userUuid));
      case "advanceQueue":
        return this.inQueueOrder(effect.userUuid, () => edge.advanceQueue(effect.userUuid, effect.crateSongUuid));
      case "loadRoomCrate": {
        const { crateId, from } = effect;
        try {
          const read = await edge.roomCrate(this.roomUuid, from);
          // The edge reads the crate from the room's row: another one there than the room asked about is a setting
          // on its way (or one the room missed), not this crate's songs.
          const songs = read.crateId === crateId ? read.songs.flatMap((s) => liveSong(s) ?? []) : null;
          this.dispatch({ type: "roomCrateLoaded", crateId, from, songs });
        } catch (err) {
          // Asked again by the room's alarm.
          this.dispatch({ type: "roomCrateLoaded", crateId, from, songs: null });
          throw err;
        }
        return;
      }
      case "recordPlay": {
        const play = await edge.recordPlay(this.slug, {
          song: effect.song,
          djUuid: effect.djUuid,
          voteCounts: effect.voteCounts,
          playedAt: new Date(effect.playedAt).toISOString(),
        });
        if (effect.points > 0)
          try {
            await edge.awardPoints({
              userUuid: effect.djUuid,
              points: Math.min(effect.points, 10_000),
              roomUuid: this.roomUuid,
              awardKey: play.id,
            });
          } catch (err) {
            // No season running: nothing to award.
            if (!(err instanceof EdgeError && err.status === 404)) throw err;
          }
        return;
      }
      case "addToLikes":
        if (effect.song.songId) await edge.addToLikes(effect.userUuid, effect.song.songId);
        return;
      case "notifyDjFans":
        return edge.notifyDjFans(effect.djUuid, this.roomUuid, effect.song).catch(() => undefined);
      case "reportLiveState": {
        const messagesReceived = this.received;
        this.received = 0;
        return edge
          .reportLiveState(this.roomUuid, {
            nowPlaying: effect.nowPlaying,
            numberOfActiveDjs: effect.numberOfActiveDjs,
            messagesReceived,
          })
          .catch(() => {
            // Not reported: counted again with the next report.
            this.received += messagesReceived;
          });
      }
    }
  }

  /**
   * One DJ's queue requests go to the edge one at a time and their answers apply in that order: a reload sent while
   * an advance is on its way would otherwise be answered from before the advance, or land after a newer answer, and
   * bring back a song that has just played.
   */
  private inQueueOrder(userUuid: string, call: () => Promise<LiveSong[]>) {
    const done = (this.queueCalls.get(userUuid) ?? Promise.resolve())
      .catch(() => undefined)
      .then(call)
      .then((songs) => this.queueLoaded(userUuid, songs));
    this.queueCalls.set(userUuid, done);
    void done
      .catch(() => undefined)
      .then(() => {
        if (this.queueCalls.get(userUuid) === done) this.queueCalls.delete(userUuid);
      });
    return done;
  }

  private queueLoaded(userUuid: string, songs: LiveSong[]) {
    this.dispatch({ type: "queueLoaded", userUuid, songs: songs.flatMap((s) => liveSong(s) ?? []) });
  }

  private reply(socket: Socket, reply: ReplyMessage) {
    socket.send(JSON.stringify(reply satisfies ServerMessage));
  }
}

/**
 * A song from the edge as the room shows it: the catalogue fields a player needs (the edge's stream addresses and a
 * provider's previews among them), nothing else; null when it is not a song.
 */
function liveSong(song: unknown): LiveSong | null {
  const parsed = LiveSongSchema.safeParse(song);
  return parsed.success ? parsed.data : null;
}

type Refusal = { ok: false; statusCode: number; message: string };

/** What others see of a user in the room. */
function profileView(uuid: string, profile: Record<string, unknown> | null): Record<string, unknown> {
  if (!profile) return { uuid, nickname: "Guest", avatarId: "default", color: "#8B5CF6", badges: [] };
  const fields = [
    "uuid",
    "nickname",
    "color",
    "avatarId",
    "firstName",
    "lastName",
    "pronoun",
    "displayPronouns",
    "songOfTheWeek",
    "zodiac",
    "coverPicture",
    "facebook",
    "instagram",
    "twitter",
    "snapchat",
    "tiktok",
    "badges",
    "priceForGig",
    "createdAt",
  ];
  return Object.fromEntries(fields.filter((f) => profile[f] !== undefined).map((f) => [f, profile[f]]));
}
