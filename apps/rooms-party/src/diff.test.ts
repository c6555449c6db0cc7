import { describe, expect, it } from "vitest";
import { changedKeys, diff, editRecord } from "./diff.ts";

const keyOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
/** A record of `n` keys, as a plain object made key by key. */
function recordOf(n: number) {
  const record: Record<string, { n: number }> = {};
  for (let i = 0; i < n; i++) record[keyOf(i)] = { n: i };
  return record;
}

describe("editRecord", () => {
  // The copy is made key by key over the keys remembered from the last edit: it must come out as a spread would have
  // made it, in the same order, whatever the keys added and removed on the way.
  for (const size of [3, 3_000])
    it(`copies a record of ${size} keys as a spread would, edits applied, the original untouched`, () => {
      const original = recordOf(size);
      const snapshot = structuredClone(original);
      let record = original;
      let expected: Record<string, { n: number }> = { ...original };
      const edits: Record<string, { n: number } | undefined>[] = [
        { [keyOf(1)]: { n: -1 } },
        { [keyOf(0)]: undefined },
        { new: { n: 0 } },
        { 7: { n: 7 } },
        { [keyOf(2)]: { n: -2 }, [keyOf(1)]: undefined },
        { [keyOf(0)]: { n: 0 } },
      ];
      for (const changes of edits) {
        record = editRecord(record, changes);
        expected = { ...expected };
        for (const [key, value] of Object.entries(changes))
          if (value === undefined) delete expected[key];
          else expected[key] = value;
        expect(Object.keys(record)).toEqual(Object.keys(expected));
        expect(record).toEqual(expected);
        expect(structuredClone(record)).toEqual(expected);
      }
      expect(original).toEqual(snapshot);
      expect(changedKeys(original, record)).toEqual(new Set([keyOf(0), keyOf(1), keyOf(2), "new", "7"]));
    });

  it("gives the diff only the keys it changed", () => {
    const before = recordOf(3_000);
    const after = editRecord(before, { [keyOf(5)]: { n: 50 }, [keyOf(6)]: undefined });
    expect(diff(before, after, "/m")).toEqual([
      { op: "replace", path: `/m/${keyOf(5)}/n`, value: 50 },
      { op: "remove", path: `/m/${keyOf(6)}` },
    ]);
  });
});

describe("a record changed in place", () => {
  it("gives the same patch, in the same order, as the copies editRecord would have made", () => {
    const edits: Record<string, { n: number } | undefined>[] = [
      { [keyOf(1)]: { n: -1 } },
      { [keyOf(2)]: undefined, added: { n: 9 } },
      { [keyOf(1)]: { n: -11 }, [keyOf(0)]: { n: 100 } },
      { added: undefined },
    ];
    // The copies: a new record per edit, the state around it copied too.
    const copied = { m: recordOf(4), x: 1 };
    let after = copied;
    for (const changes of edits) after = { ...after, m: editRecord(after.m, changes) };
    // In place: one record, changed where it is, each edit written down as the transaction does it.
    const state = { m: recordOf(4), x: 1 };
    const written = { key: "m", edits: [] as string[][], was: new Map<string, unknown>() };
    const before = { ...state };
    for (const changes of edits) {
      written.edits.push(Object.keys(changes));
      for (const [key, value] of Object.entries(changes)) {
        if (!written.was.has(key)) written.was.set(key, state.m[key]);
        if (value === undefined) delete state.m[key];
        else state.m[key] = value;
      }
    }
    const expected = diff(copied, after);
    // The newest edit's keys first; a key added and removed again is no change.
    expect(expected.map((op) => op.path)).toEqual([`/m/${keyOf(1)}/n`, `/m/${keyOf(0)}/n`, `/m/${keyOf(2)}`]);
    expect(diff(before, state, "", [], written)).toEqual(expected);
    expect(state.m).toEqual(after.m);
  });
});
