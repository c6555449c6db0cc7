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
