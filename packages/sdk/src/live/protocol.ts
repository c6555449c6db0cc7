/**
 * The live room's wire protocol, shared by the live room (apps/rooms-party) and the live client. Every message
 * a room receives is parsed with these schemas; every message it sends is typed by them.
 *
 * client -> server  {action, params, requestId}
 * server -> client  {requestId, ok: true, result} | {requestId, ok: false, statusCode, message}
 *                   {name, statePatch, seq}   stateful: RFC 6902 operations against the client state
 *                   {name, params}            stateless: playedOneTimeAnimation, kickedFromRoom, roomReset, chat...
 */

import { z } from "zod";
import { type EnumValue, enumOf, values } from "../enumeration.ts";
import { DjType, RoomRoleName } from "./enums.ts";

export { DjType, RoomRoleName, SANCTION_ROLES } from "./enums.ts";

// ---- vocabulary -------------------------------------------------------------------------------------------------

export const ClientAction = enumOf(
  "joinRoom",
  "addDj",
  "removeDj",
  "updateNextSong",
  "skipSong",
  "voteOnSong",
  "playOneTimeAnimation",
  "sendChatMessage",
  "editChatMessage",
  "deleteChatMessage",
  "reactToChatMessage",
  "joinWaitlist",
  "leaveWaitlist",
  "moveInWaitlist",
  "grabSong",
);
export type ClientAction = EnumValue<typeof ClientAction>;

/** Stateful messages: each carries `statePatch` and the next `seq`. */
export const StatefulMessage = enumOf(
  "userJoined",
  "userLeft",
  "addedDj",
  "removedDj",
  "playedSong",
  "updatedNextSong",
  "votedOnSong",
  "lookedUpSong",
  "updatedRoomSettings",
  "updatedGuestPassword",
  "updatedUserData",
  "updatedUserProfile",
  "updatedWaitlist",
  "grabbedSong",
);
export type StatefulMessageName = EnumValue<typeof StatefulMessage>;

/** Stateless messages: each carries `params`, and no seq. */
export const StatelessMessage = enumOf(
  "playedOneTimeAnimation",
  "kickedFromRoom",
  "roomReset",
  "chatMessage",
  "chatMessageUpdated",
  "chatMessageDeleted",
  "chatCleared",
  "updatedSanctions",
  "idleWarning",
);
export type StatelessMessageName = EnumValue<typeof StatelessMessage>;

export const LIMITS = {
  chatHistory: 300,
  chatEditWindowMs: 20_000,
  chatText: 2000,
  chatRate: { messages: 5, perMs: 10_000 },
  /** Different emojis one chat message may carry as reactions (each with any number of people). */
  chatReactions: 8,
  /** How much of the message replied to a reply quotes. */
  chatReplyExcerpt: 140,
  songJson: 20_000,
  requestId: 100,
} as const;

// ---- data -------------------------------------------------------------------------------------------------------

const str = (max: number) => z.string().max(max);
const stringMap = z.record(str(100), str(2000));

/**
 * A song in the room (a minimal crate song), always as the edge's catalogue answered it: the room reads only these
 * fields of what the edge sends, and never takes a song from a client.
 */
export const LiveSongSchema = z
  .object({
    songId: str(100).optional(),
    songShortId: str(100).optional(),
    crateSongUuid: str(100).optional(),
    trackName: str(500),
    artistName: str(500),
    album: str(500).nullable().optional(),
    genre: str(200).nullable().optional(),
    duration: z
      .number()
      .min(0)
      .max(24 * 3600),
    isrc: str(50).nullable().optional(),
    musicProviders: stringMap.optional(),
    thumbnails: stringMap.optional(),
    /** The edge's own stream addresses (`hls`: its encrypted HLS playlist), relative to the edge. */
    streamUrls: stringMap.optional(),
    /** Short previews a provider publishes, for songs the platform cannot stream itself. */
    previews: stringMap.optional(),
    playbackToken: str(4000).nullable().optional(),
    status: str(50).optional(),
    position: z.number().int().optional(),
    explicit: z.boolean().optional(),
  })
  .refine((song) => JSON.stringify(song).length <= LIMITS.songJson, "song: too large");
export type LiveSong = z.infer<typeof LiveSongSchema>;

/**
 * How a client names a song: its catalogue id, and the entry of their crate it comes from. The room looks the song
 * up through the edge; any other field a client adds (older clients send whole songs) is dropped unread.
 */
export const SongRefSchema = z.object({ songId: z.uuid(), crateSongUuid: z.uuid().optional() });
export type SongRef = z.infer<typeof SongRefSchema>;

/** The only media a chat message carries: images the edge itself serves (`POST /api/user-service/users/images`). */
export const CHAT_MEDIA_PATH =
  /^\/api\/user-service\/users\/images\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A playlist shared in the chat: which crate, and its name to show; nothing a client could make others load. */
export const ChatPlaylistSchema = z.object({ crateUuid: z.uuid(), crateName: str(200).optional() });

export const RoomRoleSchema = z.object({
  userUuid: z.string(),
  role: z.enum(values(RoomRoleName)),
  expirationTime: z.string().nullable(),
});
export type RoomRole = z.infer<typeof RoomRoleSchema>;

/** The room's settings, as the edge answers them (`GET /rooms/service/room/{id}`, `POST /rooms/{slug}/join`). */
export const RoomSettingsSchema = z.looseObject({
  uuid: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.enum(["PUBLIC", "PRIVATE"]),
  djType: z.enum(values(DjType)),
  numberOfDjs: z.number().int().min(1),
  songsPerDj: z.number().int().min(1).nullable(),
  roomSize: z.number().int(),
  hasChat: z.boolean(),
  design: z.string(),
  isLive: z.boolean(),
  pinnedMessages: z.array(z.unknown()),
  roomRoles: z.array(RoomRoleSchema),
  voteSkipThreshold: z.number().nullable().optional(),
  /** A full booth has a waitlist: who wants a seat lines up, and the first takes the next seat that frees. */
  waitlistEnabled: z.boolean().optional(),
  /**
   * A seated DJ who does nothing (no vote, chat or other action) for this many minutes while not playing leaves the
   * booth, warned a minute before (`idleWarning`); null or absent: never.
   */
  idleDjMinutes: z.number().int().min(1).nullable().optional(),
  /**
   * The owner's crate the room plays, in order and wrapping around, while no DJ has a song (`nowPlaying.byRoom`);
   * null or absent: none, and an empty booth is silent.
   */
  roomCrateId: z.string().nullable().optional(),
});
export type RoomSettings = z.infer<typeof RoomSettingsSchema>;

export type TokenRole = "user" | "bot" | "guest";
export interface RoomUser {
  uuid: string;
  tokenRole: TokenRole;
  /** The strongest of the user's room role and platform role, when they have one. */
  highestRole?: string;
  canDj: boolean;
}
export interface SongVotes {
  like?: boolean;
  star?: boolean;
  /** They grabbed the song playing into one of their crates. */
  grab?: boolean;
}
export interface UserData {
  userProfile: Record<string, unknown>;
  position: { x: number; y: number };
  songVotes: SongVotes;
}
export interface Dj extends RoomUser {
  nextSong: LiveSong | null;
}
export interface NowPlaying {
  song: LiveSong;
  /** Epoch milliseconds. */
  startTime: number;
  endTime: number;
  /**
   * The room plays this song from its room crate (`settings.roomCrateId`) because no DJ has one: no DJ plays it (the
   * booth may be empty), nobody earns points for it, and it ends at once when a DJ has a song to play.
   */
  byRoom?: true;
}
export interface VoteCounts {
  likes: number;
  dislikes: number;
  stars: number;
}

/** What every client of a room holds, kept in step by the patches. */
export interface LiveState {
  allUserData: Record<string, UserData>;
  allUsers: RoomUser[];
  audienceUsers: RoomUser[];
  floorUsers: RoomUser[];
  djs: Dj[];
  visibleDjs: Dj[];
  nowPlaying: NowPlaying | null;
  settings: RoomSettings;
  /** Songs the playing DJ has left before stepping down; null when the room sets no limit. */
  songsRemainingForDj: number | null;
  vibeMeter: number;
  voteCounts: VoteCounts;
  /**
   * Who waits for a DJ seat, first first (user uuids; each is in `allUsers`). Empty unless the room's
   * `waitlistEnabled`; the first takes the next seat that frees.
   */
  waitlist: string[];
  /** How many people grabbed the song playing into a crate of theirs (each once, however many crates). */
  grabs: number;
}

/** A room's state before anyone has joined: nobody in it, nothing playing, no votes. */
export function emptyLiveState(settings: RoomSettings): LiveState {
  return {
    allUserData: {},
    allUsers: [],
    audienceUsers: [],
    floorUsers: [],
    djs: [],
    visibleDjs: [],
    nowPlaying: null,
    settings,
    songsRemainingForDj: null,
    vibeMeter: 0,
    voteCounts: { likes: 0, dislikes: 0, stars: 0 },
    waitlist: [],
    grabs: 0,
  };
}

/** A consumable someone bought for the room, shown in its chat. */
export const ChatConsumableSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayType: z.enum(["cover", "small"]),
  imageUrl: z.string().nullable(),
  tokenCost: z.number(),
  purchaseId: z.string(),
});
export type ChatConsumable = z.infer<typeof ChatConsumableSchema>;

/** The message a reply answers, as it was when the reply was sent (it may be edited or deleted since). */
export const ChatReplyToSchema = z.object({
  id: z.string(),
  userUuid: z.string(),
  userName: z.string(),
  excerpt: z.string(),
});
export type ChatReplyTo = z.infer<typeof ChatReplyToSchema>;

/** One emoji's reactions to a chat message: who reacted with it, in order. */
export const ChatReactionSchema = z.object({ emoji: z.string(), userUuids: z.array(z.string()) });
export type ChatReaction = z.infer<typeof ChatReactionSchema>;

export const ChatMessageSchema = z.object({
  id: z.string(),
  uuid: z.string(),
  /** `consumable`: a purchase announced in the chat (its `consumable` says what); `message` is then its name. */
  type: z.enum(["room", "consumable"]),
  message: z.string(),
  userUuid: z.string(),
  userName: z.string(),
  avatarId: z.string(),
  color: z.string(),
  badges: z.array(z.string()),
  date: z.number(),
  mentions: z.array(z.string()),
  media: z.array(z.string()),
  songs: z.array(LiveSongSchema),
  playlist: ChatPlaylistSchema.nullable(),
  editedAt: z.number().nullable(),
  consumable: ChatConsumableSchema.optional(),
  /** A reply: the message it answers (absent on messages from before replies). */
  replyTo: ChatReplyToSchema.nullable().optional(),
  /** Reactions, one entry per emoji in the order first used (absent until someone reacts). */
  reactions: z.array(ChatReactionSchema).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

// ---- client -> server -------------------------------------------------------------------------------------------

const uuid = z.uuid();
const emoji = z
  .string()
  .min(1)
  .max(16)
  .refine((s) => [...new Intl.Segmenter().segment(s)].length === 1, "emoji: a single emoji");

export const ActionParams = {
  joinRoom: z.strictObject({
    roomUuid: uuid,
    password: str(128).optional(),
    guestPassword: str(128).optional(),
  }),
  addDj: z.strictObject({ song: SongRefSchema.optional() }),
  removeDj: z.strictObject({ userUuid: uuid.optional() }),
  updateNextSong: z.strictObject({ song: SongRefSchema.nullable() }),
  skipSong: z.strictObject({}),
  voteOnSong: z.strictObject({
    songVotes: z
      .strictObject({ like: z.boolean().optional(), star: z.boolean().optional() })
      .refine((v) => v.like !== undefined || v.star !== undefined, "songVotes: give like or star"),
  }),
  playOneTimeAnimation: z
    .strictObject({ animation: z.enum(["emoji", "jump"]), emoji: emoji.optional() })
    .refine((p) => p.animation !== "emoji" || p.emoji !== undefined, "emoji: needed for an emoji animation"),
  sendChatMessage: z.strictObject({
    message: str(LIMITS.chatText).optional(),
    media: z.array(z.string().regex(CHAT_MEDIA_PATH, "only images uploaded to Booth")).max(4).optional(),
    songs: z
      .array(SongRefSchema.pick({ songId: true }))
      .max(5)
      .optional(),
    playlist: ChatPlaylistSchema.optional(),
    /** The id of the message this one answers (in the room's chat history). */
    replyTo: str(100).optional(),
  }),
  /** `on`: add the caller's reaction with `emoji` (true) or take it back (false). */
  reactToChatMessage: z.strictObject({ id: str(100), emoji, on: z.boolean() }),
  editChatMessage: z.strictObject({ id: str(100), message: str(LIMITS.chatText) }),
  deleteChatMessage: z.strictObject({ id: str(100) }),
  joinWaitlist: z.strictObject({}),
  /** Without `userUuid`: leave it yourself; with another's: a moderator takes them off it. */
  leaveWaitlist: z.strictObject({ userUuid: uuid.optional() }),
  /** Moderators: put someone at `position` (1 is first) of the waitlist. */
  moveInWaitlist: z.strictObject({ userUuid: uuid, position: z.number().int().min(1).max(10_000) }),
  /** The song playing into one of the caller's crates: a crate's uuid, or their `queue` or `likes`. */
  grabSong: z.strictObject({ crate: z.union([uuid, z.enum(["queue", "likes"])]) }),
} as const satisfies Record<ClientAction, z.ZodType>;
export type ActionParams = { [A in ClientAction]: z.infer<(typeof ActionParams)[A]> };

const RequestId = z.union([z.string().max(LIMITS.requestId), z.number()]);
export const ClientMessageSchema = z.strictObject({
  action: z.enum(values(ClientAction)),
  params: z.unknown().optional(),
  requestId: RequestId,
});

/** A client message, checked: the envelope, then the params of its action. */
export type ParsedClientMessage = {
  [A in ClientAction]: { action: A; params: ActionParams[A]; requestId: string | number };
}[ClientAction];

export type ParseResult =
  | { ok: true; message: ParsedClientMessage }
  | { ok: false; requestId: string | number | null; message: string };

const issuesText = (error: z.ZodError) =>
  error.issues
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .slice(0, 5)
    .join("; ");

export function parseClientMessage(raw: unknown): ParseResult {
  let data: unknown = raw;
  if (typeof raw === "string") {
    if (raw.length > 100_000) return { ok: false, requestId: null, message: "Message too large." };
    try {
      data = JSON.parse(raw);
    } catch {
      return { ok: false, requestId: null, message: "Message is not JSON." };
    }
  }
  const envelope = ClientMessageSchema.safeParse(data);
  if (!envelope.success) {
    const id = RequestId.safeParse((data as { requestId?: unknown } | null)?.requestId);
    return { ok: false, requestId: id.success ? id.data : null, message: issuesText(envelope.error) };
  }
  const { action, requestId } = envelope.data;
  const params = ActionParams[action].safeParse(envelope.data.params ?? {});
  if (!params.success) return { ok: false, requestId, message: issuesText(params.error) };
  return { ok: true, message: { action, params: params.data, requestId } as ParsedClientMessage };
}

// ---- server -> client -------------------------------------------------------------------------------------------

export interface PatchOperation {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  value?: unknown;
  from?: string;
}

export interface JoinResult {
  roomUuid: string;
  state: LiveState;
  /** The seq of the last stateful message folded into `state`; the next one is seq + 1. */
  seq: number;
  serverTime: number;
  chatMessages: ChatMessage[];
  /** The room's sanctions in force: all of them for its moderators, one's own for anyone else. */
  sanctions: RoomRole[];
}

export interface ActionResults {
  joinRoom: JoinResult;
  addDj: Record<string, never>;
  removeDj: Record<string, never>;
  updateNextSong: Record<string, never>;
  skipSong: Record<string, never>;
  voteOnSong: Record<string, never>;
  playOneTimeAnimation: Record<string, never>;
  sendChatMessage: ChatMessage;
  editChatMessage: ChatMessage;
  deleteChatMessage: Record<string, never>;
  /** The message with its reactions as they are now. */
  reactToChatMessage: ChatMessage;
  /** Where the caller stands: `position` on the waitlist (1 is first), or `seated` when a seat was free. */
  joinWaitlist: { position: number } | { seated: true };
  leaveWaitlist: Record<string, never>;
  moveInWaitlist: Record<string, never>;
  /** `added`: false when the song was in that crate already (the grab counts all the same). */
  grabSong: { added: boolean; grabs: number };
}

export type ReplyMessage =
  | { requestId: string | number; ok: true; result: unknown }
  | { requestId: string | number | null; ok: false; statusCode: number; message: string };

export interface StatefulServerMessage {
  name: StatefulMessageName;
  statePatch: PatchOperation[];
  seq: number;
}

export interface StatelessParams {
  playedOneTimeAnimation: { userUuid: string; animation: "emoji" | "jump"; emoji?: string };
  kickedFromRoom: { roomUuid: string; reason: string };
  roomReset: { roomUuid: string };
  chatMessage: { message: ChatMessage };
  chatMessageUpdated: { message: ChatMessage };
  chatMessageDeleted: { id: string };
  chatCleared: Record<string, never>;
  /** The sanctions this client sees (as in the join answer), sent to it alone when they change. */
  updatedSanctions: { sanctions: RoomRole[] };
  /** To an idle DJ alone: they leave the booth at `removeAt` (epoch ms) unless they do something first. */
  idleWarning: { removeAt: number };
}
export type StatelessServerMessage = {
  [N in StatelessMessageName]: { name: N; params: StatelessParams[N] };
}[StatelessMessageName];

export type ServerMessage = ReplyMessage | StatefulServerMessage | StatelessServerMessage;

export { CloseCode } from "./close-codes.ts";
