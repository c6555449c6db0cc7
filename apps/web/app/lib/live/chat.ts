import type { ChatMessage } from "@booth/sdk/live";

/** The spec's chat rules on the client: at most 300 messages, a 20-second edit window. */
export const CHAT_CAP = 300;
export const EDIT_WINDOW_MS = 20_000;

/** Adds a message (or replaces it, same id); beyond the cap the oldest go. */
export function mergeChat(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  const at = list.findIndex((m) => m.id === message.id);
  const next = at >= 0 ? list.map((m, i) => (i === at ? message : m)) : [...list, message];
  return next.length > CHAT_CAP ? next.slice(next.length - CHAT_CAP) : next;
}

/** The viewer's latest message, if it is still within the edit window at `now` (room time). */
export function editableMessage(list: ChatMessage[], userUuid: string | undefined, now: number) {
  if (!userUuid) return null;
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (m?.userUuid === userUuid) return now - m.date <= EDIT_WINDOW_MS ? m : null;
  }
  return null;
}

/** Consecutive plain messages of one person collapse under one header. */
export function startsGroup(list: ChatMessage[], index: number) {
  const m = list[index];
  const before = list[index - 1];
  return !before || !m || before.userUuid !== m.userUuid || m.date - before.date > 5 * 60_000;
}

export type ChatPart = { text: string } | { mention: string; self: boolean };

/**
 * Splits a message into text and mentions: `<@uuid>` tokens become the person's name, `@nickname` of someone in
 * the room stays as written; both are highlighted (and marked when they name the viewer).
 */
export function chatParts(
  text: string,
  names: Record<string, string>,
  viewer: { uuid: string; nickname: string } | null,
): ChatPart[] {
  const parts: ChatPart[] = [];
  const known = Object.values(names)
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`<@([0-9a-f-]{36})>${known.length ? `|@(${known.join("|")})` : ""}`, "gi");
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    if (match[1]) {
      const name = names[match[1]] ?? "someone";
      parts.push({ mention: `@${name}`, self: match[1] === viewer?.uuid });
    } else {
      const name = match[2] ?? "";
      parts.push({ mention: `@${name}`, self: name.toLowerCase() === viewer?.nickname.toLowerCase() });
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
