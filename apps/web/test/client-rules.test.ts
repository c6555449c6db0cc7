/** The web's client rules from the spec, without a browser: chat, playback position, listening tracking. */
import type { ChatMessage, NowPlaying } from "@booth/sdk/live";
import { describe, expect, it } from "vitest";
import { CHAT_CAP, chatParts, editableMessage, mergeChat, startsGroup } from "../app/lib/live/chat.ts";
import { type ListeningEvent, ListeningTracker } from "../app/lib/playback/listening.ts";
import { sendsToken, sourceOf } from "../app/lib/playback/player.ts";
import { formatDuration, playbackOffset, playbackProgress } from "../app/lib/playback/position.ts";

const ANA = "00000000-0000-4000-8000-00000000000a";
const BO = "00000000-0000-4000-8000-00000000000b";

function message(n: number, userUuid = ANA, date = 1_000_000 + n * 1000): ChatMessage {
  return {
    id: `m${n}`,
    uuid: `u${n}`,
    type: "room",
    message: `message ${n}`,
    userUuid,
    userName: userUuid === ANA ? "Ana" : "Bo",
    avatarId: "",
    color: "#8b5cf6",
    badges: [],
    date,
    mentions: [],
    media: [],
    songs: [],
    playlist: null,
    editedAt: null,
  };
}

describe("chat", () => {
  it("keeps the newest 300 messages and replaces one that comes again", () => {
    let list: ChatMessage[] = [];
    for (let i = 0; i < CHAT_CAP + 5; i++) list = mergeChat(list, message(i));
    expect(list).toHaveLength(300);
    expect(list[0]?.id).toBe("m5");
    expect(list.at(-1)?.id).toBe("m304");
    const edited = { ...message(304), message: "changed" };
    list = mergeChat(list, edited);
    expect(list).toHaveLength(300);
    expect(list.at(-1)?.message).toBe("changed");
  });

  it("lets the author edit only their latest message, within 20 seconds", () => {
    const list = [message(1, ANA, 1000), message(2, ANA, 5000), message(3, BO, 6000)];
    expect(editableMessage(list, ANA, 5000 + 20_000)?.id).toBe("m2");
    expect(editableMessage(list, ANA, 5000 + 20_001)).toBeNull();
    expect(editableMessage(list, BO, 7000)?.id).toBe("m3");
    expect(editableMessage(list, undefined, 7000)).toBeNull();
  });

  it("groups consecutive messages of one person", () => {
    const list = [message(1, ANA), message(2, ANA), message(3, BO), message(4, ANA, 1_000_000 + 10 * 60_000)];
    expect(list.map((_, i) => startsGroup(list, i))).toEqual([true, false, true, true]);
  });

  it("turns <@uuid> tokens and @nicknames into mentions, marking the viewer's", () => {
    const names = { [ANA]: "Ana", [BO]: "Bo Diddley" };
    expect(chatParts(`hi <@${ANA}> and @Bo Diddley!`, names, { uuid: ANA, nickname: "Ana" })).toEqual([
      { text: "hi " },
      { mention: "@Ana", self: true },
      { text: " and " },
      { mention: "@Bo Diddley", self: false },
      { text: "!" },
    ]);
    expect(chatParts("mail me at x@y.z", names, null)).toEqual([{ text: "mail me at x@y.z" }]);
  });

  it("makes http(s) addresses links, without the sentence's punctuation; anything else stays text", () => {
    const names = { [ANA]: "Ana" };
    expect(chatParts("listen: https://example.com/a?b=1#c, (see http://x.example/wiki/A_(b))!", names, null)).toEqual([
      { text: "listen: " },
      { link: "https://example.com/a?b=1#c", text: "https://example.com/a?b=1#c" },
      { text: ", (see " },
      { link: "http://x.example/wiki/A_(b)", text: "http://x.example/wiki/A_(b)" },
      { text: ")!" },
    ]);
    // What is written is shown; the address is the parser's.
    expect(chatParts("HTTPS://Example.COM/Song", names, null)).toEqual([
      { link: "https://example.com/Song", text: "HTTPS://Example.COM/Song" },
    ]);
    // A mention inside an address is part of the address; one beside it is a mention.
    expect(chatParts(`@Ana https://example.com/@Ana`, names, { uuid: ANA, nickname: "Ana" })).toEqual([
      { mention: "@Ana", self: true },
      { text: " " },
      { link: "https://example.com/@Ana", text: "https://example.com/@Ana" },
    ]);
    for (const text of [
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "ftp://example.com/file",
      "https://bank.example@evil.example/login",
      "www.example.com",
      "https:// nothing",
      "xhttps://example.com",
    ])
      expect(chatParts(text, names, null), text).toEqual([{ text }]);
    // Markup is text: only the address in it is a link, to where it says, shown as written.
    expect(chatParts('<a href="https://evil.example">hi</a>', names, null)).toEqual([
      { text: '<a href="' },
      { link: "https://evil.example/", text: "https://evil.example" },
      { text: '">hi</a>' },
    ]);
  });
});

describe("playback position", () => {
  const np = (startTime: number, duration: number): NowPlaying => ({
    song: { trackName: "T", artistName: "A", duration },
    startTime,
    endTime: startTime + duration * 1000,
  });

  it("starts where the server's end time says, corrected by the clock offset", () => {
    // The song started 30 s ago by the server's clock; this browser's clock is 5 s behind.
    const serverNow = 1_000_000;
    const song = np(serverNow - 30_000, 120);
    expect(playbackOffset(song, 5000, serverNow - 5000)).toBeCloseTo(30, 5);
    expect(playbackOffset(song, 0, serverNow - 5000)).toBeCloseTo(25, 5);
    expect(playbackProgress(song, 5000, serverNow - 5000)).toBeCloseTo(0.25, 5);
    // Never before the start nor past the end.
    expect(playbackOffset(song, 0, serverNow - 60_000)).toBe(0);
    expect(playbackOffset(song, 0, serverNow + 600_000)).toBe(120);
  });

  it("shows durations as days, hours, minutes and seconds", () => {
    expect(formatDuration(5)).toBe("0:05");
    expect(formatDuration(245)).toBe("4:05");
    expect(formatDuration(3725)).toBe("1:02:05");
    expect(formatDuration(90_061)).toBe("1d 1:01:01");
  });

  it("plays the platform's HLS, else a plain file, from the edge's address", () => {
    const song = { trackName: "T", artistName: "A", duration: 1 };
    expect(sourceOf({ ...song, streamUrls: { hls: "/api/upload-service/songs/1/hls-playlist" } }, "http://e")).toEqual({
      provider: "hls",
      url: "http://e/api/upload-service/songs/1/hls-playlist",
    });
    expect(sourceOf({ ...song, previews: { spotify: "https://p.example/x.mp3" } }, "http://e")).toEqual({
      provider: "file",
      url: "https://p.example/x.mp3",
    });
    expect(sourceOf(song, "http://e")).toBeNull();
  });

  it("sends the listener's token only to the edge's own origin, for a song's playlist and key", () => {
    const edge = "https://edge.booth.test";
    const key = "/api/upload-service/songs/hls/key?songId=1";
    expect(sendsToken(`${edge}${key}`, edge)).toBe(true);
    expect(sendsToken(`${edge}/api/upload-service/songs/1/hls-playlist`, edge)).toBe(true);
    expect(sendsToken(key, edge, `${edge}/api/upload-service/songs/1/hls-playlist`)).toBe(true);
    for (const elsewhere of [
      `https://evil.test${key}`,
      `https://evil.test/x?u=${edge}${key}`,
      `https://edge.booth.test.evil.test${key}`,
      `https://edge.booth.testevil.test${key}`,
      `https://cdn.edge.booth.test${key}`,
      `https://edge.booth.test@evil.test${key}`,
      `https://edge.booth.test:bad@evil.test${key}`,
      `https://user@edge.booth.test${key}`,
      `http://edge.booth.test${key}`,
      `https://edge.booth.test:8443${key}`,
      `//evil.test${key}`,
      `${edge}/api/upload-service/songs/1/hls/seg000.ts`,
      `${edge}/api/user-service/auth/session`,
      "not a url",
    ])
      expect({ url: elsewhere, token: sendsToken(elsewhere, edge, "https://web.booth.test/rooms/x") }).toEqual({
        url: elsewhere,
        token: false,
      });
  });
});

describe("listening tracking", () => {
  const play = {
    playId: "p1",
    roomSlug: "lounge",
    roomOwnerUuid: ANA,
    djUuid: BO,
    songInfo: { trackName: "T", artistName: "A" },
  };

  it("sends the start, the 15 s and 30 s events once each, and the total at the end", () => {
    const sent: ListeningEvent[] = [];
    const tracker = new ListeningTracker((e) => sent.push(e));
    tracker.start(play, 0);
    tracker.start(play, 0); // the same play again: ignored
    for (let s = 1; s <= 40; s++) tracker.tick(play, 1000, s * 1000);
    tracker.tick({ playId: "other", roomSlug: "lounge" }, 60_000, 41_000); // another song: ignored
    tracker.end();
    expect(sent.map((e) => e.topic)).toEqual([
      "trackStartedPlaying",
      "trackPlayed15Seconds",
      "trackPlayed30Seconds",
      "trackFinishedPlaying",
    ]);
    const last = sent.at(-1);
    expect(last?.topic === "trackFinishedPlaying" && last.totalSeconds).toBe(40);
  });

  it("skips the 15 s event when the time listened jumps past its window, and sends no total for nothing", () => {
    const sent: ListeningEvent[] = [];
    const tracker = new ListeningTracker((e) => sent.push(e));
    tracker.start(play, 0);
    tracker.tick(play, 27_000, 27_000);
    tracker.start({ ...play, playId: "p2" }, 28_000); // a new song closes the last one
    tracker.end(); // p2: nothing listened, no total
    expect(sent.map((e) => e.topic)).toEqual([
      "trackStartedPlaying",
      "trackPlayed30Seconds",
      "trackFinishedPlaying",
      "trackStartedPlaying",
    ]);
  });

  it("continues a play record kept in storage across a reload", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    const first = new ListeningTracker(() => {}, storage);
    first.start(play, 0);
    first.tick(play, 12_000, 12_000);
    const sent: ListeningEvent[] = [];
    const second = new ListeningTracker((e) => sent.push(e), storage);
    second.start(play, 13_000); // the same play after the reload: not a new start
    second.tick(play, 14_000, 27_000);
    expect(sent.map((e) => e.topic)).toEqual(["trackPlayed30Seconds"]);
  });
});
