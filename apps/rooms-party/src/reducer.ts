/**
 * The rules of a live room, as a pure function: (state, action, context) -> new state, the stateful messages (with
 * their RFC 6902 patches), the stateless messages, the reply to the caller, and the effects the adapter performs
 * (calls to the edge). Nothing here reads a clock, a socket or the network.
 *
 * `reduce` runs each action in a transaction (reducer/tx.ts) and hands it to the module whose job it is:
 * reducer/join.ts (joining), members.ts (people, connections, leaving), booth.ts (DJs, songs, rotation), votes.ts,
 * chat.ts, settings.ts (the edge's settings and sanctions), lifecycle.ts (time passing, resets); permissions.ts reads
 * the shared permissions of `@booth/sdk/live`. State and actions are typed in state.ts and actions.ts.
 */
import { MESSAGES, type Result, type RoomAction, type RoomClientAction, RoomError } from "./reducer/actions.ts";
import {
  addDj,
  endSongAndRotate,
  playNext,
  queueChanged,
  queueLoaded,
  removeDjAction,
  skipSong,
  updateNextSong,
} from "./reducer/booth.ts";
import {
  announceConsumable,
  clearChat,
  deleteChat,
  editChat,
  playAnimation,
  reactToChat,
  sendChat,
} from "./reducer/chat.ts";
import { join } from "./reducer/join.ts";
import { reset, tick } from "./reducer/lifecycle.ts";
import { disconnected, kick, requireMember } from "./reducer/members.ts";
import { roomCrateLoaded } from "./reducer/room-crate.ts";
import { applySettings } from "./reducer/settings.ts";
import { DEFAULT_CONFIG, type RoomState } from "./reducer/state.ts";
import { Tx } from "./reducer/tx.ts";
import { grab, vote } from "./reducer/votes.ts";
import { joinWaitlist, leaveWaitlist, moveInWaitlist } from "./reducer/waitlist.ts";

export {
  type Effect,
  MESSAGES,
  type Outgoing,
  type Reply,
  type ResolvedParams,
  type Result,
  type RoomAction,
  type RoomClientAction,
  RoomError,
} from "./reducer/actions.ts";
export { chatIsValid } from "./reducer/chat.ts";
export { joinView } from "./reducer/join.ts";
export { KICKED_CLOSE_CODE } from "./reducer/members.ts";
export { canDj, liveSettings, rolesInForce, roomRules, sanctionsSeenBy, splitSettings } from "./reducer/permissions.ts";
export { owedAfterRestart } from "./reducer/room-crate.ts";
export {
  DEFAULT_CONFIG,
  type DjMeta,
  initialState,
  type JoiningUser,
  type Member,
  nextWakeAt,
  type Playing,
  ROOM_DJ,
  type RoomConfig,
  type RoomCrate,
  type RoomState,
  UNKNOWN_DURATION_SECONDS,
} from "./reducer/state.ts";

/**
 * Runs one action. `inPlace`: the caller gives up `state` (the live room, which keeps only the state it is answered),
 * so `allUserData` is changed where it is instead of copied, and `writtenInPlace` names the users whose entry changed;
 * a refused action puts back what it changed. Otherwise `state` is left as it was, whatever happens.
 */
export function reduce(
  state: RoomState,
  action: RoomAction,
  now: number,
  config = DEFAULT_CONFIG,
  { inPlace = false } = {},
): Result {
  const tx = new Tx(state, now, config, inPlace);
  try {
    switch (action.type) {
      case "join":
        join(tx, action.user, action.settings);
        break;
      case "client":
        client(tx, action.userUuid, action.request, action.id);
        break;
      case "disconnected":
        disconnected(tx, action.userUuid);
        break;
      case "tick":
        tick(tx);
        break;
      case "queueLoaded":
        queueLoaded(tx, action.userUuid, action.songs);
        break;
      case "queueChanged":
        queueChanged(tx, action.userUuid);
        break;
      case "roomCrateLoaded":
        if (roomCrateLoaded(tx, action.crateId, action.from, action.songs)) playNext(tx);
        break;
      case "settings":
        applySettings(tx, action.settings);
        break;
      case "kick":
        kick(tx, action.userUuid, action.reason ?? MESSAGES.kicked);
        break;
      case "reset":
        reset(tx, action.settings);
        break;
      case "clearChat":
        clearChat(tx);
        break;
      case "consumable":
        announceConsumable(tx, action.buyer, action.consumable);
        break;
    }
    return tx.result();
  } catch (err) {
    tx.rollBack();
    if (!(err instanceof RoomError)) throw err;
    // A refused action changes nothing.
    const out = new Tx(state, now, config).out;
    return { ...out, reply: { ok: false, statusCode: err.statusCode, message: err.message } };
  }
}

function client(tx: Tx, userUuid: string, request: RoomClientAction, id: string) {
  const member = requireMember(tx, userUuid);
  // Whatever a seated DJ does keeps them from being idle.
  const meta = tx.state.djMeta[userUuid];
  if (meta && (meta.activeAt !== tx.now || meta.idleWarned))
    tx.setMeta(userUuid, { ...meta, activeAt: tx.now, idleWarned: false });
  switch (request.action) {
    case "addDj":
      return addDj(tx, member, request.params.song ?? null);
    case "removeDj":
      return removeDjAction(tx, member, request.params.userUuid ?? member.uuid);
    case "updateNextSong":
      return updateNextSong(tx, member, request.params.song);
    case "skipSong":
      return skipSong(tx, member);
    case "voteOnSong":
      if (vote(tx, member, request.params.songVotes)) endSongAndRotate(tx);
      return;
    case "playOneTimeAnimation":
      return playAnimation(tx, member, request.params);
    case "sendChatMessage":
      return sendChat(tx, member, request.params, id);
    case "editChatMessage":
      return editChat(tx, member, request.params.id, request.params.message);
    case "deleteChatMessage":
      return deleteChat(tx, member, request.params.id);
    case "reactToChatMessage":
      return reactToChat(tx, member, request.params);
    case "joinWaitlist":
      return joinWaitlist(tx, member);
    case "leaveWaitlist":
      return leaveWaitlist(tx, member, request.params.userUuid ?? member.uuid);
    case "grabSong":
      return grab(tx, member, request.params.songId, request.params.added);
    case "moveInWaitlist":
      return moveInWaitlist(tx, member, request.params.userUuid, request.params.position);
  }
}
