/**
 * The waitlist (plug.dj, üWave): when the room turns it on and the booth is full, who wants a seat lines up; the first
 * takes the next seat that frees, following their queue crate. Moderators take people off it and reorder it.
 */
import { MESSAGES, RoomError } from "./actions.ts";
import { canDj, isModerator } from "./permissions.ts";
import { seat } from "./seat.ts";
import type { Member } from "./state.ts";
import type { Tx } from "./tx.ts";

export const waitlistOn = (tx: Tx) => tx.live.settings.waitlistEnabled === true;

const seatFree = (tx: Tx) => tx.live.djs.length < tx.live.settings.numberOfDjs;

function setWaitlist(tx: Tx, waitlist: string[]) {
  tx.setLive({ waitlist });
  tx.emit("updatedWaitlist");
}

export function joinWaitlist(tx: Tx, member: Member) {
  if (!waitlistOn(tx)) throw new RoomError(409, MESSAGES.waitlistOff);
  if (tx.live.djs.some((d) => d.uuid === member.uuid)) throw new RoomError(409, MESSAGES.alreadyDj);
  if (tx.live.waitlist.includes(member.uuid)) throw new RoomError(409, MESSAGES.alreadyWaiting);
  if (!canDj(member, tx.rules, tx.now)) throw new RoomError(403, MESSAGES.cannotDj);
  if (seatFree(tx) && !tx.live.waitlist.length) {
    // Nobody waits and a seat is free: no need to line up.
    seat(tx, member, null);
    tx.out.reply = { ok: true, result: { seated: true } };
    return;
  }
  setWaitlist(tx, [...tx.live.waitlist, member.uuid]);
  tx.out.reply = { ok: true, result: { position: tx.live.waitlist.length } };
}

export function leaveWaitlist(tx: Tx, caller: Member, target: string) {
  if (target !== caller.uuid && !isModerator(caller, tx.live.settings, tx.now))
    throw new RoomError(403, MESSAGES.waitlistModerators);
  if (!tx.live.waitlist.includes(target)) throw new RoomError(404, MESSAGES.notWaiting);
  setWaitlist(
    tx,
    tx.live.waitlist.filter((u) => u !== target),
  );
}

export function moveInWaitlist(tx: Tx, caller: Member, target: string, position: number) {
  if (!isModerator(caller, tx.live.settings, tx.now)) throw new RoomError(403, MESSAGES.waitlistModerators);
  if (!tx.live.waitlist.includes(target)) throw new RoomError(404, MESSAGES.notWaiting);
  const rest = tx.live.waitlist.filter((u) => u !== target);
  const at = Math.min(position, rest.length + 1) - 1;
  const next = [...rest.slice(0, at), target, ...rest.slice(at)];
  if (next.every((u, i) => u === tx.live.waitlist[i])) return;
  setWaitlist(tx, next);
}

/** Someone is gone (left the room, may no longer DJ): off the waitlist, if they were on it. */
export function dropFromWaitlist(tx: Tx, uuid: string) {
  if (tx.live.waitlist.includes(uuid))
    setWaitlist(
      tx,
      tx.live.waitlist.filter((u) => u !== uuid),
    );
}

/**
 * Seats that are free go to the first on the waitlist, in order; whoever may no longer DJ is passed over and taken
 * off. A waitlist the room turned off is emptied.
 */
export function fillSeats(tx: Tx) {
  if (!waitlistOn(tx)) {
    if (tx.live.waitlist.length) setWaitlist(tx, []);
    return;
  }
  let waitlist = tx.live.waitlist;
  const gone = waitlist.filter((u) => {
    const m = tx.member(u);
    return !m || !canDj(m, tx.rules, tx.now);
  });
  if (gone.length) waitlist = waitlist.filter((u) => !gone.includes(u));
  const seated: Member[] = [];
  while (waitlist.length && tx.live.djs.length + seated.length < tx.live.settings.numberOfDjs) {
    const [first, ...rest] = waitlist;
    waitlist = rest;
    const member = first ? tx.member(first) : undefined;
    if (member) seated.push(member);
  }
  if (waitlist !== tx.live.waitlist) setWaitlist(tx, waitlist);
  for (const member of seated) seat(tx, member, null);
}
