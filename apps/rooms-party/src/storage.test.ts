import { describe, expect, it } from "vitest";
import { initialState, reduce } from "./reducer.ts";
import { keyValueStateStore, memoryKeyValue } from "./storage.ts";
import { settingsFor, userFor } from "./testing.ts";

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
});
