import {
  type ChatMessage,
  emptyLiveState,
  type LiveSong,
  type LiveState,
  type StatelessServerMessage,
} from "@booth/sdk/live";
import { describe, expect, it } from "vitest";
import { BoothBot, type BotRoom } from "./behaviour.ts";

const ME = { uuid: "00000000-0000-4000-8000-000000000001", nickname: "Bot" };
const OTHER = "00000000-0000-4000-8000-000000000002";
const song = (trackName: string): LiveSong => ({ trackName, artistName: "Artist", duration: 10 });
const dj = (uuid: string) => ({ uuid, tokenRole: "user" as const, canDj: true, nextSong: null });

/** A room that does what the live room would, as far as the bot can tell. */
class FakeRoom implements BotRoom {
  state: LiveState = emptyLiveState({ numberOfDjs: 2 } as LiveState["settings"]);
  calls: string[] = [];
  said: string[] = [];
  chatAllowed = true;
  private listeners: { state: ((s: LiveState, n: string) => void)[]; event: ((m: StatelessServerMessage) => void)[] } =
    {
      state: [],
      event: [],
    };

  on(event: "state" | "event", listener: never) {
    (this.listeners[event] as unknown[]).push(listener);
    return () => undefined;
  }
  change(patch: Partial<LiveState>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners.state) l(this.state, "change");
  }
  chat(userUuid: string, message: string) {
    const m = { id: crypto.randomUUID(), userUuid, userName: "someone", message } as ChatMessage;
    for (const l of this.listeners.event) l({ name: "chatMessage", params: { message: m } });
  }
  async addDj() {
    this.calls.push("addDj");
    if (this.state.djs.length >= this.state.settings.numberOfDjs)
      throw Object.assign(new Error("All DJ seats are taken."), { statusCode: 403 });
    this.change({ djs: [...this.state.djs, dj(ME.uuid)] });
    return {};
  }
  async removeDj() {
    this.calls.push("removeDj");
    this.change({ djs: this.state.djs.filter((d) => d.uuid !== ME.uuid) });
    return {};
  }
  async joinWaitlist() {
    this.calls.push("joinWaitlist");
    if (this.state.waitlist.includes(ME.uuid))
      throw Object.assign(new Error("You are already on the waitlist."), { statusCode: 409 });
    this.change({ waitlist: [...this.state.waitlist, ME.uuid] });
    return { position: this.state.waitlist.length };
  }
  async leaveWaitlist() {
    this.calls.push("leaveWaitlist");
    this.change({ waitlist: this.state.waitlist.filter((u) => u !== ME.uuid) });
    return {};
  }
  async skipSong() {
    this.calls.push("skipSong");
    return {};
  }
  async voteOnSong(votes: { like?: boolean }) {
    this.calls.push(`vote:${JSON.stringify(votes)}`);
    return {};
  }
  async sendChatMessage({ message }: { message: string }) {
    if (!this.chatAllowed)
      throw Object.assign(new Error("Verify your profile to chat in public rooms."), { statusCode: 403 });
    this.said.push(message);
    return {};
  }
  async playOneTimeAnimation(animation: string) {
    this.calls.push(`animation:${animation}`);
    return {};
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("the bot's behaviour", () => {
  it("sits down, waits for a seat when the booth is full, and sits again when it frees up", async () => {
    const room = new FakeRoom();
    room.state.djs = [dj(OTHER), dj("00000000-0000-4000-8000-000000000003")];
    const log: string[] = [];
    const bot = new BoothBot(room, { me: ME, log: (l) => log.push(l) });
    bot.start();
    await settle();
    expect(room.calls).toEqual([]); // a full booth: no point asking
    room.change({ djs: [dj(OTHER)] });
    await settle();
    expect(bot.isDj()).toBe(true);
    expect(log).toContain("took a DJ seat");
    // Sent back to the floor (songs per DJ): it sits again.
    room.change({ djs: [dj(OTHER)] });
    await settle();
    expect(room.calls.filter((c) => c === "addDj")).toHaveLength(2);
    await bot.leave();
    expect(bot.isDj()).toBe(false);
    expect(log).toContain("left the DJ booth");
  });

  it("lines up on a room's waitlist once, is seated by the room in turn, and leaves the list when it goes", async () => {
    const room = new FakeRoom();
    room.state.settings = { numberOfDjs: 1, waitlistEnabled: true } as LiveState["settings"];
    room.state.djs = [dj(OTHER)];
    room.state.waitlist = ["00000000-0000-4000-8000-000000000003"];
    const log: string[] = [];
    const bot = new BoothBot(room, { me: ME, log: (l) => log.push(l) });
    bot.start();
    await settle();
    room.change({ voteCounts: { likes: 1, dislikes: 0, stars: 0 } }); // any change: no second place asked for
    await settle();
    expect(room.calls).toEqual(["joinWaitlist"]);
    expect(log).toContain("waiting for a seat: number 2 on the waitlist");
    // The room seats the first, then the bot.
    room.change({ djs: [dj("00000000-0000-4000-8000-000000000003")], waitlist: [ME.uuid] });
    room.change({ djs: [dj(ME.uuid)], waitlist: [] });
    await settle();
    expect(room.calls).toEqual(["joinWaitlist"]);
    expect(bot.isDj()).toBe(true);
    // Back to the floor and in line again; leaving takes it off the list.
    room.change({ djs: [dj(OTHER)] });
    await settle();
    expect(room.calls).toEqual(["joinWaitlist", "joinWaitlist"]);
    await bot.leave();
    expect(room.calls.at(-1)).toBe("leaveWaitlist");
    expect(room.state.waitlist).toEqual([]);
  });

  it("likes each song someone else plays once, and not its own", async () => {
    const room = new FakeRoom();
    const bot = new BoothBot(room, { me: ME, dj: false });
    bot.start();
    const other = { song: song("Theirs"), startTime: 1, endTime: 2 };
    room.change({ djs: [dj(OTHER)], nowPlaying: other });
    room.change({ voteCounts: { likes: 1, dislikes: 0, stars: 0 } });
    room.change({ djs: [dj(ME.uuid), dj(OTHER)], nowPlaying: { song: song("Mine"), startTime: 3, endTime: 4 } });
    await settle();
    expect(room.calls).toEqual(['vote:{"like":true}']);
  });

  it("answers !help, !song and !skip, skipping only its own song; ignores itself and unknown commands", async () => {
    const room = new FakeRoom();
    const bot = new BoothBot(room, { me: ME, dj: false, likeOthers: false });
    bot.start();
    room.chat(OTHER, "!help");
    room.chat(OTHER, "!song");
    room.chat(OTHER, "!nope");
    room.chat(ME.uuid, "!help");
    await settle();
    expect(room.said[0]).toMatch(/^I answer to !help .*!song .*!skip .*!dance/);
    expect(room.said[1]).toBe("Nothing is playing right now.");
    expect(room.said).toHaveLength(2);

    room.change({ djs: [dj(OTHER)], nowPlaying: { song: song("Theirs"), startTime: 1, endTime: 2 } });
    room.chat(OTHER, "!skip");
    await settle();
    expect(room.said.at(-1)).toBe("I can only skip my own songs.");
    room.change({ djs: [dj(ME.uuid)], nowPlaying: { song: song("Mine"), startTime: 3, endTime: 4 } });
    room.chat(OTHER, "  !SONG  ");
    room.chat(OTHER, "!skip");
    await settle();
    expect(room.said.slice(-2)).toEqual(["Now playing: Mine by Artist.", "Skipping my song."]);
    expect(room.calls).toContain("skipSong");
  });

  it("takes extra commands, and says once that a room will not let it chat", async () => {
    const room = new FakeRoom();
    const log: string[] = [];
    const bot = new BoothBot(room, {
      me: ME,
      dj: false,
      log: (l) => log.push(l),
      commands: { hello: { description: "greets", run: ({ message }) => `Hello ${message.userName}!` } },
    });
    bot.start();
    room.chat(OTHER, "!hello");
    await settle();
    expect(room.said).toEqual(["Hello someone!"]);
    room.chatAllowed = false;
    room.chat(OTHER, "!hello");
    room.chat(OTHER, "!song");
    await settle();
    expect(log.filter((l) => l.startsWith("cannot chat here"))).toEqual([
      "cannot chat here: Verify your profile to chat in public rooms.",
    ]);
  });
});
