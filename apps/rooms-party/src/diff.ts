import type { PatchOperation } from "@booth/sdk/live/protocol";

const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * What an edited record differs in from the record it was made from: a big map (allUserData) changes one key per
 * vote, and walking its thousands of keys to find that one would cost more than the vote itself. Each record made by
 * `editRecord` has an entry naming the record it came from (by a number, so no old record is kept alive) and the
 * keys it changed; entries chain back a bounded number of edits.
 */
interface Edit {
  id: number;
  from: number;
  keys: readonly string[];
  previous: Edit | undefined;
  depth: number;
}
const MAX_CHAIN = 256;
const edits = new WeakMap<object, Edit>();
/**
 * The keys of each record `editRecord` made, in the order they were added (copying them in that order keeps the
 * record's order): listing a big record's keys costs as much as copying it. A record is never changed once made.
 */
const keyLists = new WeakMap<object, readonly string[]>();
const ids = new WeakMap<object, number>();
let lastId = 0;
function idOf(record: object) {
  let id = ids.get(record);
  if (id === undefined) {
    id = ++lastId;
    ids.set(record, id);
  }
  return id;
}

/**
 * An empty object, with the usual prototype, that V8 keeps as a dictionary from its first key. A big record is copied
 * into it key by key several times faster than by a spread: a spread (or keys added to `{}`) builds a fast object
 * whose property storage V8 grows a few slots at a time, copying it at each step, and a spread of a dictionary lists
 * and sorts its keys first. In a room of 1,000, the reducer's copy of `allUserData` took 0.3 ms by spread, 0.06 ms
 * into this (bench/rooms-engine.ts, docs/decisions/0011).
 */
function emptyDictionary<V>(): Record<string, V> {
  return Object.setPrototypeOf(Object.create(null), Object.prototype);
}

/** A copy of `record` with `changes` made (undefined deletes), remembering which keys it changed. */
export function editRecord<V>(record: Record<string, V>, changes: Record<string, V | undefined>): Record<string, V> {
  const before = keyLists.get(record) ?? Object.keys(record);
  const next = emptyDictionary<V>();
  for (const key of before) next[key] = record[key] as V;
  const keys = Object.keys(changes);
  const added: string[] = [];
  const removed = new Set<string>();
  for (const key of keys) {
    const value = changes[key];
    const had = Object.hasOwn(next, key);
    if (value === undefined) {
      if (had) removed.add(key);
      delete next[key];
    } else {
      if (!had) added.push(key);
      next[key] = value;
    }
  }
  keyLists.set(next, removed.size || added.length ? [...before.filter((k) => !removed.has(k)), ...added] : before);
  const previous = edits.get(record);
  const depth = previous ? previous.depth + 1 : 0;
  edits.set(next, {
    id: idOf(next),
    from: idOf(record),
    keys,
    previous: depth < MAX_CHAIN ? previous : undefined,
    depth: depth < MAX_CHAIN ? depth : 0,
  });
  return next;
}

/**
 * The keys in which `after` may differ from `before` when it was made from it by `editRecord` (over up to a few
 * hundred edits); null when that is not known, and every key must be compared.
 */
export function changedKeys(before: object, after: object): Set<string> | null {
  const target = ids.get(before);
  if (target === undefined) return null;
  const keys = new Set<string>();
  for (let edit = edits.get(after); edit; edit = edit.previous) {
    for (const key of edit.keys) keys.add(key);
    if (edit.from === target) return keys;
  }
  return null;
}

/**
 * A record of `before` changed in place, so that `before` and `after` share it: its key in `before`, the keys each edit
 * changed (oldest first), and what each key held before the first of them (undefined: it was absent).
 */
export interface InPlace {
  key: string;
  edits: (readonly string[])[];
  was: ReadonlyMap<string, unknown>;
}

/**
 * RFC 6902 operations turning `before` into `after`. The reducer shares every unchanged branch between states, so
 * an identical reference ends the walk: a vote in a room of thousands costs a few operations, not a deep compare.
 * Arrays keep their common head and tail (by reference) and patch only the middle, so a user joining or leaving is
 * one add or one remove.
 */
export function diff(
  before: unknown,
  after: unknown,
  path = "",
  ops: PatchOperation[] = [],
  inPlace?: InPlace,
): PatchOperation[] {
  if (before === after && !inPlace) return ops;
  if (Array.isArray(before) && Array.isArray(after)) {
    diffArrays(before, after, path, ops);
    return ops;
  }
  if (isObject(before) && isObject(after) && !Array.isArray(before) && !Array.isArray(after)) {
    const edited = changedKeys(before, after);
    if (edited) {
      for (const key of edited) diffKey(before[key], after[key], key, path, ops);
      return ops;
    }
    for (const key of Object.keys(before)) {
      const was = before[key];
      // Most keys of a big map (allUserData) are untouched: no path is built for them.
      if (was === undefined) continue;
      const is = after[key];
      if (key === inPlace?.key && was === is) {
        diffInPlace(is as Record<string, unknown>, inPlace, `${path}/${escapeKey(key)}`, ops);
        continue;
      }
      if (was === is) continue;
      const child = `${path}/${escapeKey(key)}`;
      if (is === undefined) ops.push({ op: "remove", path: child });
      else diff(was, is, child, ops);
    }
    for (const key of Object.keys(after)) {
      if (before[key] !== undefined) continue;
      const is = after[key];
      if (is !== undefined) ops.push({ op: "add", path: `${path}/${escapeKey(key)}`, value: is });
    }
    return ops;
  }
  if (!isObject(before) && !isObject(after) && Object.is(before, after)) return ops;
  ops.push({ op: "replace", path, value: after });
  return ops;
}

/**
 * The keys of a record changed in place, in the order the diff of an `editRecord` copy lists them (the newest edit's
 * keys first), so the patch is the same either way.
 */
function diffInPlace(record: Record<string, unknown>, inPlace: InPlace, path: string, ops: PatchOperation[]) {
  const keys = new Set<string>();
  for (let i = inPlace.edits.length - 1; i >= 0; i--) for (const key of inPlace.edits[i] ?? []) keys.add(key);
  for (const key of keys) diffKey(inPlace.was.get(key), record[key], key, path, ops);
}

/** What one key held before and holds after, as the walk over all the keys would compare it. */
function diffKey(was: unknown, is: unknown, key: string, path: string, ops: PatchOperation[]) {
  if (was === is) return;
  const child = `${path}/${escapeKey(key)}`;
  if (was === undefined) ops.push({ op: "add", path: child, value: is });
  else if (is === undefined) ops.push({ op: "remove", path: child });
  else diff(was, is, child, ops);
}

function diffArrays(before: unknown[], after: unknown[], path: string, ops: PatchOperation[]) {
  let head = 0;
  const shortest = Math.min(before.length, after.length);
  while (head < shortest && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < shortest - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const oldMiddle = before.length - head - tail;
  const newMiddle = after.length - head - tail;
  const paired = Math.min(oldMiddle, newMiddle);
  for (let i = 0; i < paired; i++) diff(before[head + i], after[head + i], `${path}/${head + i}`, ops);
  // Extra old elements go from the back of the middle, so earlier indices stay valid.
  for (let i = oldMiddle - 1; i >= paired; i--) ops.push({ op: "remove", path: `${path}/${head + i}` });
  for (let i = paired; i < newMiddle; i++) ops.push({ op: "add", path: `${path}/${head + i}`, value: after[head + i] });
}
