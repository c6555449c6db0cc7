import { describe, expect, it } from "vitest";
import { initialState, reduce } from "./reducer.ts";
import { keyValueStateStore, memoryKeyValue } from "./storage.ts";
import { settingsFor, songFor, userFor } from "./testing.ts";

const T0 = Date.parse("2026-06-01T12:00:00Z");
const muted = { userUuid: userFor(1).uuid, role: "chatDisabled" as const, expirationTime: null };

describe("the state store", () => {
  it("keeps the sanctions across a restart, apart from the shared settings", async () => {
    const kv = memoryKeyValue();
    const settings = settingsFor({ roomRoles: [muted] });
    const state = reduce(initialState(settings), { type: "join", user: userFor(1), settings }, T0).state;
    await keyValueStateStore(kv).save(state);
    const loaded = await keyValueStateStore(kv).load();
    expect(loaded?.sanctions).toEqual([muted]);
    expect(loaded?.live.settings.roomRoles).toEqual([]);
    expect(loaded).toEqual(state);
  });

  it("takes the sanctions out of the settings of a room stored before they were kept apart", async () => {
    const kv = memoryKeyValue();
    const settings = settingsFor({ roomRoles: [muted] });
    const state = reduce(initialState(settings), { type: "join", user: userFor(1), settings }, T0).state;
    await keyValueStateStore(kv).save(state);
    // As an older room wrote it: the sanctions inside the settings, no key of their own.
    const { sanctions: _gone, ...core } = (await kv.get<Record<string, unknown>>("core")) ?? {};
    await kv.put({ core: { ...core, settings: { ...state.live.settings, roomRoles: [muted] } } });
    const loaded = await keyValueStateStore(kv).load();
    expect(loaded?.live.settings.roomRoles).toEqual([]);
    expect(loaded?.sanctions).toEqual([muted]);
  });

  it("writes what a vote counts apart from the core, and reads it back over the core's", async () => {
    const kv = memoryKeyValue();
    const store = keyValueStateStore(kv);
    const settings = settingsFor();
    let state = initialState(settings);
    for (const n of [1, 2]) state = reduce(state, { type: "join", user: userFor(n), settings }, T0).state;
    const addDj = { action: "addDj" as const, params: { song: songFor(1, { duration: 600 }) } };
    state = reduce(state, { type: "client", userUuid: userFor(1).uuid, request: addDj, id: "a" }, T0).state;
    await store.save(state);
    const core = await kv.get("core");
    const like = { action: "voteOnSong" as const, params: { songVotes: { like: true } } };
    const voted = reduce(state, { type: "client", userUuid: userFor(2).uuid, request: like, id: "v" }, T0).state;
    await store.save(voted);
    expect(await kv.get("core")).toEqual(core);
    expect(await kv.get("counts")).toEqual({ voteCounts: { likes: 1, dislikes: 0, stars: 0 }, vibeMeter: 1, grabs: 0 });
    expect(await keyValueStateStore(kv).load()).toEqual(voted);
  });

  it("writes the users a vote changed in place, the record being the one it saved before", async () => {
    const kv = memoryKeyValue();
    const store = keyValueStateStore(kv);
    const settings = settingsFor();
    let state = initialState(settings);
    const inPlace = { inPlace: true };
    for (const n of [1, 2, 3])
      state = reduce(state, { type: "join", user: userFor(n), settings }, T0, undefined, inPlace).state;
    const addDj = { action: "addDj" as const, params: { song: songFor(1, { duration: 600 }) } };
    state = reduce(state, { type: "client", userUuid: userFor(1).uuid, request: addDj, id: "a" }, T0).state;
    await store.save(state);
    const like = { action: "voteOnSong" as const, params: { songVotes: { like: true } } };
    const out = reduce(
      state,
      { type: "client", userUuid: userFor(2).uuid, request: like, id: "v" },
      T0,
      undefined,
      inPlace,
    );
    expect(out.state.live.allUserData).toBe(state.live.allUserData);
    await store.save(out.state, out.writtenInPlace);
    const loaded = await keyValueStateStore(kv).load();
    expect(loaded?.live.allUserData[userFor(2).uuid]?.songVotes).toEqual({ like: true });
    expect(loaded).toEqual(out.state);
  });

  it("writes a vote made in place with the next save when the save that carried it failed", async () => {
    const kv = memoryKeyValue();
    const store = keyValueStateStore(kv);
    const settings = settingsFor();
    const inPlace = { inPlace: true };
    let state = initialState(settings);
    for (const n of [1, 2, 3])
      state = reduce(state, { type: "join", user: userFor(n), settings }, T0, undefined, inPlace).state;
    const addDj = { action: "addDj" as const, params: { song: songFor(1, { duration: 600 }) } };
    state = reduce(
      state,
      { type: "client", userUuid: userFor(1).uuid, request: addDj, id: "a" },
      T0,
      undefined,
      inPlace,
    ).state;
    await store.save(state);
    const vote = (n: number, like: boolean) =>
      reduce(
        state,
        {
          type: "client",
          userUuid: userFor(n).uuid,
          request: { action: "voteOnSong", params: { songVotes: { like } } },
          id: `v${n}`,
        },
        T0,
        undefined,
        inPlace,
      );
    const first = vote(2, true);
    state = first.state;
    const put = kv.put;
    kv.put = async () => {
      throw new Error("storage is down");
    };
    await expect(store.save(state, first.writtenInPlace)).rejects.toThrow("storage is down");
    kv.put = put;
    const second = vote(3, false);
    state = second.state;
    await store.save(state, second.writtenInPlace);
    const loaded = await keyValueStateStore(kv).load();
    expect(loaded?.live.allUserData[userFor(2).uuid]?.songVotes).toEqual({ like: true });
    expect(loaded).toEqual(state);
  });
});
