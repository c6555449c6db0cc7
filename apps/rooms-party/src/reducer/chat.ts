/** The room's chat: messages, their mentions and media, edits, deletions, purchases announced, the history. */
import { type ChatConsumable, type ChatMessage, type ChatReplyTo, LIMITS } from "@booth/sdk/live/protocol";
import { MESSAGES, type ResolvedParams, RoomError } from "./actions.ts";
import { mayDeleteChat, rolesInForce } from "./permissions.ts";
import type { Member } from "./state.ts";
import type { Tx } from "./tx.ts";

const MENTION_TOKEN = /<@([0-9a-f-]{36})>/gi;
const MENTION_NAME = /(?:^|\s)@([\p{L}\p{N}_.-]{2,32})/gu;

export function mentionsIn(tx: Tx, text: string) {
  const found = new Set<string>();
  for (const m of text.matchAll(MENTION_TOKEN))
    if (m[1] && tx.member(m[1].toLowerCase())) found.add(m[1].toLowerCase());
  const names = [...text.matchAll(MENTION_NAME)].map((m) => m[1]?.toLowerCase());
  if (names.length)
    for (const [uuid, data] of Object.entries(tx.live.allUserData)) {
      const nickname = String(data.userProfile.nickname ?? "").toLowerCase();
      if (nickname && names.includes(nickname)) found.add(uuid);
    }
  return [...found];
}

type ChatInput = ResolvedParams["sendChatMessage"];

export function chatAllowed(tx: Tx, member: Member) {
  const settings = tx.live.settings;
  if (!settings.hasChat) throw new RoomError(403, MESSAGES.chatOff);
  if (rolesInForce(tx.rules, member.uuid, tx.now).includes("chatDisabled"))
    throw new RoomError(403, MESSAGES.chatDisabled);
  if (settings.type === "PUBLIC" && !member.verified) throw new RoomError(403, MESSAGES.chatUnverified);
}

/** The spec's rule: text, media, songs or a playlist. */
export const chatIsValid = (m: { message?: string; media?: unknown[]; songs?: unknown[]; playlist?: unknown }) =>
  !!m.message?.trim() || !!m.media?.length || !!m.songs?.length || (!!m.playlist && Object.keys(m.playlist).length > 0);

export function sendChat(tx: Tx, member: Member, input: ChatInput, id: string) {
  chatAllowed(tx, member);
  if (!chatIsValid(input)) throw new RoomError(400, MESSAGES.chatInvalid);
  const recent = member.chatTimes.filter((t) => t > tx.now - LIMITS.chatRate.perMs);
  if (recent.length >= LIMITS.chatRate.messages) throw new RoomError(429, MESSAGES.chatRate);
  tx.setMember({ ...member, chatTimes: [...recent, tx.now] });
  const replyTo = input.replyTo ? replyToOf(tx, input.replyTo) : null;
  const profile = tx.live.allUserData[member.uuid]?.userProfile ?? {};
  const text = input.message?.trim() ?? "";
  const message: ChatMessage = {
    id,
    uuid: id,
    type: "room",
    message: text,
    userUuid: member.uuid,
    userName: String(profile.nickname ?? "Guest"),
    avatarId: String(profile.avatarId ?? "default"),
    color: String(profile.color ?? "#8B5CF6"),
    badges: member.badges,
    date: tx.now,
    mentions: mentionsIn(tx, text),
    media: input.media ?? [],
    songs: input.songs ?? [],
    playlist: input.playlist ?? null,
    editedAt: null,
    replyTo,
    reactions: [],
  };
  tx.set({ chat: [...tx.state.chat, message].slice(-LIMITS.chatHistory) });
  tx.send("all", { name: "chatMessage", params: { message } });
  tx.out.reply = { ok: true, result: message };
}

/** The message a reply answers, quoted as it is now: who wrote it and the start of its text. */
function replyToOf(tx: Tx, id: string): ChatReplyTo {
  const original = tx.state.chat.find((m) => m.id === id);
  if (!original) throw new RoomError(404, MESSAGES.chatReplyNotFound);
  const text = original.type === "consumable" ? original.message : original.message.trim();
  const chars = [...text];
  const excerpt =
    chars.length > LIMITS.chatReplyExcerpt ? `${chars.slice(0, LIMITS.chatReplyExcerpt - 1).join("")}…` : text;
  return { id: original.id, userUuid: original.userUuid, userName: original.userName, excerpt };
}

/**
 * Adds or takes back the caller's reaction to a message: one of each emoji per person, up to LIMITS.chatReactions
 * different emojis per message. Who may chat may react; the message goes to everyone again as updated.
 */
export function reactToChat(tx: Tx, member: Member, params: { id: string; emoji: string; on: boolean }) {
  chatAllowed(tx, member);
  const message = tx.state.chat.find((m) => m.id === params.id);
  if (!message) throw new RoomError(404, MESSAGES.chatNotFound);
  const reactions = message.reactions ?? [];
  const existing = reactions.find((r) => r.emoji === params.emoji);
  const mine = existing?.userUuids.includes(member.uuid) ?? false;
  if (mine === params.on) {
    // Already so: nothing changes, and nothing is sent.
    tx.out.reply = { ok: true, result: message };
    return;
  }
  if (params.on && !existing && reactions.length >= LIMITS.chatReactions)
    throw new RoomError(409, MESSAGES.chatReactions);
  const next = params.on
    ? existing
      ? reactions.map((r) => (r === existing ? { ...r, userUuids: [...r.userUuids, member.uuid] } : r))
      : [...reactions, { emoji: params.emoji, userUuids: [member.uuid] }]
    : reactions
        .map((r) => (r === existing ? { ...r, userUuids: r.userUuids.filter((u) => u !== member.uuid) } : r))
        .filter((r) => r.userUuids.length > 0);
  const updated: ChatMessage = { ...message, reactions: next };
  tx.set({ chat: tx.state.chat.map((m) => (m.id === params.id ? updated : m)) });
  tx.send("all", { name: "chatMessageUpdated", params: { message: updated } });
  tx.out.reply = { ok: true, result: updated };
}

/** A purchase made over REST for this room: a chat message everyone sees, kept in the history like any other. */
export function announceConsumable(tx: Tx, buyer: { uuid: string; nickname: string }, consumable: ChatConsumable) {
  const id = `consumable-${consumable.purchaseId}`;
  if (tx.state.chat.some((m) => m.id === id)) return;
  const profile = tx.live.allUserData[buyer.uuid]?.userProfile ?? {};
  const message: ChatMessage = {
    id,
    uuid: id,
    type: "consumable",
    message: consumable.name,
    userUuid: buyer.uuid,
    userName: String(profile.nickname ?? buyer.nickname),
    avatarId: String(profile.avatarId ?? "default"),
    color: String(profile.color ?? "#8B5CF6"),
    badges: tx.member(buyer.uuid)?.badges ?? [],
    date: tx.now,
    mentions: [],
    media: [],
    songs: [],
    playlist: null,
    editedAt: null,
    consumable,
  };
  tx.set({ chat: [...tx.state.chat, message].slice(-LIMITS.chatHistory) });
  tx.send("all", { name: "chatMessage", params: { message } });
}

export function editChat(tx: Tx, member: Member, id: string, text: string) {
  chatAllowed(tx, member);
  const message = tx.state.chat.find((m) => m.id === id);
  if (!message) throw new RoomError(404, MESSAGES.chatNotFound);
  const latest = tx.state.chat.findLast((m) => m.userUuid === member.uuid);
  if (message.userUuid !== member.uuid || latest?.id !== id || tx.now - message.date > LIMITS.chatEditWindowMs)
    throw new RoomError(403, MESSAGES.chatEdit);
  const edited: ChatMessage = { ...message, message: text.trim(), mentions: mentionsIn(tx, text), editedAt: tx.now };
  if (!chatIsValid({ ...edited, playlist: edited.playlist ?? undefined }))
    throw new RoomError(400, MESSAGES.chatInvalid);
  tx.set({ chat: tx.state.chat.map((m) => (m.id === id ? edited : m)) });
  tx.send("all", { name: "chatMessageUpdated", params: { message: edited } });
  tx.out.reply = { ok: true, result: edited };
}

export function deleteChat(tx: Tx, member: Member, id: string) {
  const message = tx.state.chat.find((m) => m.id === id);
  if (!message) throw new RoomError(404, MESSAGES.chatNotFound);
  if (!mayDeleteChat(member, message.userUuid, tx.live.settings, tx.now)) throw new RoomError(403, MESSAGES.chatDelete);
  tx.set({ chat: tx.state.chat.filter((m) => m.id !== id) });
  tx.send("all", { name: "chatMessageDeleted", params: { id } });
}

/** The edge cleared the room's chat: the history goes, and everyone's copy with it. */
export function clearChat(tx: Tx) {
  tx.set({ chat: [] });
  tx.send("all", { name: "chatCleared", params: {} });
}

/** An animation everyone sees once (an emoji, a jump); nothing of it stays in the state. */
export function playAnimation(tx: Tx, member: Member, params: ResolvedParams["playOneTimeAnimation"]) {
  tx.send("all", {
    name: "playedOneTimeAnimation",
    params: {
      userUuid: member.uuid,
      animation: params.animation,
      ...(params.emoji ? { emoji: params.emoji } : {}),
    },
  });
}
