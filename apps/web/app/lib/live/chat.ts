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

export type ChatPart = { text: string } | { mention: string; self: boolean } | { link: string; text: string };

/** What a message's text says is an address: http(s) only, up to a space or a character no URL has unescaped. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;

/**
 * The http(s) address `raw` names, as the link's `href`, or null: the browser's parser decides, the scheme must be
 * http or https, and an address with a user name or password (`https://bank.example@evil.example`, a known disguise)
 * stays text.
 */
export function chatLinkHref(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
  if (url.username || url.password) return null;
  return url.href;
}

/** A matched address without the sentence's punctuation after it, nor a closing bracket it did not open. */
function trimLink(raw: string): string {
  let link = raw;
  for (;;) {
    const before = link;
    link = link.replace(/[.,;:!?*]+$/, "");
    for (const [open, close] of [
      ["(", ")"],
      ["[", "]"],
    ] as const) {
      if (link.endsWith(close) && link.split(close).length > link.split(open).length) link = link.slice(0, -1);
    }
    if (link === before) return link;
  }
}

/** Splits text into plain text and http(s) links (the text shown is the sender's, the address the parser's). */
function splitLinks(text: string): ({ text: string } | { link: string; text: string })[] {
  const parts: ({ text: string } | { link: string; text: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const raw = trimLink(match[0]);
    const href = chatLinkHref(raw);
    if (!href) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ link: href, text: raw });
    last = match.index + raw.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/**
 * Splits a message into text, links and mentions: http(s) addresses become links (anything else that looks like
 * one, `javascript:` included, stays text); outside them, `<@uuid>` tokens become the person's name and `@nickname`
 * of someone in the room stays as written; both are highlighted (and marked when they name the viewer).
 */
export function chatParts(
  text: string,
  names: Record<string, string>,
  viewer: { uuid: string; nickname: string } | null,
): ChatPart[] {
  const known = Object.values(names)
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`<@([0-9a-f-]{36})>${known.length ? `|@(${known.join("|")})` : ""}`, "gi");
  const parts: ChatPart[] = [];
  for (const piece of splitLinks(text)) {
    if ("link" in piece) {
      parts.push(piece);
      continue;
    }
    const plain = piece.text;
    let last = 0;
    for (const match of plain.matchAll(pattern)) {
      if (match.index > last) parts.push({ text: plain.slice(last, match.index) });
      if (match[1]) {
        const name = names[match[1]] ?? "someone";
        parts.push({ mention: `@${name}`, self: match[1] === viewer?.uuid });
      } else {
        const name = match[2] ?? "";
        parts.push({ mention: `@${name}`, self: name.toLowerCase() === viewer?.nickname.toLowerCase() });
      }
      last = match.index + match[0].length;
    }
    if (last < plain.length) parts.push({ text: plain.slice(last) });
  }
  return parts;
}
