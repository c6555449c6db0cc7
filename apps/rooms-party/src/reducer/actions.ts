/** What the reducer takes (actions), and what it answers: messages, effects, the reply, and its refusals. */
import type {
  ActionParams,
  ChatConsumable,
  LiveSong,
  PatchOperation,
  RoomSettings,
  StatefulMessageName,
  StatelessServerMessage,
  VoteCounts,
} from "@booth/sdk/live/protocol";
import type { JoiningUser, RoomState } from "./state.ts";

/**
 * A client's action as the reducer takes it: the songs the client named already looked up through the edge (room.ts),
 * so what the room plays and shows is the catalogue's, never what a client wrote.
 */
export type ResolvedParams = Omit<ActionParams, "addDj" | "updateNextSong" | "sendChatMessage" | "grabSong"> & {
  addDj: { song?: LiveSong };
  /** The song the room asked the edge to add to the caller's crate (the one playing then), and whether it was new there. */
  grabSong: { songId: string; added: boolean };
  updateNextSong: { song: LiveSong | null };
  sendChatMessage: Omit<ActionParams["sendChatMessage"], "songs"> & { songs?: LiveSong[] };
};
type ClientActionOf<A extends keyof ResolvedParams> = { action: A; params: ResolvedParams[A] };
export type RoomClientAction = {
  [A in Exclude<keyof ResolvedParams, "joinRoom">]: ClientActionOf<A>;
}[Exclude<keyof ResolvedParams, "joinRoom">];

export type RoomAction =
  | { type: "join"; user: JoiningUser; settings: RoomSettings }
  | { type: "client"; userUuid: string; request: RoomClientAction; id: string }
  | { type: "disconnected"; userUuid: string }
  | { type: "tick" }
  | { type: "queueLoaded"; userUuid: string; songs: LiveSong[] }
  /** The user's queue crate changed over REST (songs added, moved, removed): a seated DJ's is read again. */
  | { type: "queueChanged"; userUuid: string }
  /**
   * The edge's answer to `loadRoomCrate` (for the crate `crateId` it asked about): the songs from `from` on; null when
   * the edge did not answer, or answered for another crate than the one asked about.
   */
  | { type: "roomCrateLoaded"; crateId: string; from: number; songs: LiveSong[] | null }
  | { type: "settings"; settings: RoomSettings }
  /** `reason` tells the user why (a ban of their account, say); the room's own words otherwise. */
  | { type: "kick"; userUuid: string; reason?: string }
  | { type: "reset"; settings: RoomSettings }
  | { type: "clearChat" }
  | { type: "consumable"; buyer: { uuid: string; nickname: string }; consumable: ChatConsumable };

export type Effect =
  | { type: "presenceJoined"; userUuid: string }
  | { type: "presenceLeft"; userUuid: string }
  | { type: "loadQueue"; userUuid: string }
  /** The room crate's next songs, from the crate position `from` on. */
  | { type: "loadRoomCrate"; crateId: string; from: number }
  | { type: "advanceQueue"; userUuid: string; crateSongUuid: string }
  | { type: "recordPlay"; song: LiveSong; djUuid: string; voteCounts: VoteCounts; playedAt: number; points: number }
  | { type: "addToLikes"; userUuid: string; song: LiveSong }
  | { type: "notifyDjFans"; djUuid: string; song: LiveSong }
  | { type: "reportLiveState"; nowPlaying: LiveSong | null; numberOfActiveDjs: number };

export interface Outgoing {
  /** Everyone, or only the connections of one user. */
  to: "all" | { userUuid: string };
  message: StatelessServerMessage;
}

export type Reply = { ok: true; result: unknown } | { ok: false; statusCode: number; message: string };

export interface Result {
  state: RoomState;
  stateful: { name: StatefulMessageName; statePatch: PatchOperation[]; seq: number }[];
  stateless: Outgoing[];
  effects: Effect[];
  reply: Reply;
  /** Users whose connections the adapter closes (after sending what is above). */
  close: { userUuid: string; code: number; reason: string }[];
  /** Every connection closes (room reset). */
  closeAll: boolean;
  /** Users whose `allUserData` entry was changed in place (see `reduce`), for the store to write; none otherwise. */
  writtenInPlace: string[];
}

export class RoomError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const MESSAGES = {
  notInRoom: "Join the room first.",
  alreadyDj: "You are already a DJ.",
  cannotDj: "You cannot DJ in this room.",
  seatsTaken: "All DJ seats are taken.",
  notDj: "That user is not a DJ.",
  notYourDj: "Only moderators may remove another DJ.",
  nothingPlaying: "Nothing is playing.",
  skipNotAllowed: "Only the DJ playing or a moderator may skip the song.",
  ownSong: "You cannot vote on your own song.",
  guestStar: "Sign in to star songs.",
  banned: "You are banned from this room.",
  chatOff: "Chat is off in this room.",
  chatDisabled: "You cannot chat in this room right now.",
  chatUnverified: "Verify your profile to chat in public rooms.",
  chatInvalid: "A chat message needs text, media, songs or a playlist.",
  chatRate: "Slow down: you are sending messages too fast.",
  chatNotFound: "Message not found.",
  chatEdit: "Only your latest message can be edited, within 20 seconds.",
  chatDelete: "Only moderators and the author may delete a message.",
  chatReplyNotFound: "The message you reply to is no longer in the chat.",
  chatReactions: "This message has as many different reactions as it can take.",
  kicked: "You were removed from this room.",
  waitlistOff: "This room has no waitlist.",
  guestGrab: "Sign in to grab songs.",
  songChanged: "The song changed: grab the one playing now.",
  alreadyWaiting: "You are already on the waitlist.",
  notWaiting: "That user is not on the waitlist.",
  waitlistFirst: "Others are waiting for a seat: join the waitlist.",
  waitlistModerators: "Only moderators may change another's place on the waitlist.",
} as const;
