import type { PatchOperation } from "@booth/sdk/live/protocol";

const escapeKey = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * RFC 6902 operations turning `before` into `after`. The reducer shares every unchanged branch between states, so
 * an identical reference ends the walk: a vote in a room of thousands costs a few operations, not a deep compare.
 * Arrays keep their common head and tail (by reference) and patch only the middle, so a user joining or leaving is
 * one add or one remove.
 */
export function diff(before: unknown, after: unknown, path = "", ops: PatchOperation[] = []): PatchOperation[] {
  if (before === after) return ops;
  if (Array.isArray(before) && Array.isArray(after)) {
    diffArrays(before, after, path, ops);
    return ops;
  }
  if (isObject(before) && isObject(after) && !Array.isArray(before) && !Array.isArray(after)) {
    for (const key of Object.keys(before)) {
      const was = before[key];
      // Most keys of a big map (allUserData) are untouched: no path is built for them.
      if (was === undefined) continue;
      const is = after[key];
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
