/** Votes on the song playing: likes, dislikes and stars, what they weigh, and the vote-skip. */

import type { SongVotes, VoteCounts } from "@booth/sdk/live/protocol";
import { MESSAGES, RoomError } from "./actions.ts";
import type { Member } from "./state.ts";
import type { Tx } from "./tx.ts";

export const NO_VOTES: VoteCounts = { likes: 0, dislikes: 0, stars: 0 };

/** Clears every vote (a new song, or none). */
export function clearVotes(tx: Tx) {
  const data = tx.live.allUserData;
  const cleared: typeof data = {};
  for (const [uuid, d] of Object.entries(data))
    if (d.songVotes.like !== undefined || d.songVotes.star !== undefined || d.songVotes.grab !== undefined)
      cleared[uuid] = { ...d, songVotes: {} };
  // The patch and the store look only at the voters, not at the whole room.
  if (Object.keys(cleared).length) tx.editUserData(cleared);
  tx.setLive({ voteCounts: NO_VOTES, grabs: 0 });
}

/**
 * A grab: the room has added the song playing to one of the caller's crates (room.ts asked the edge), and counts
 * each person once, however many crates they grab it into.
 */
export function grab(tx: Tx, member: Member, songId: string, added: boolean) {
  const now = tx.live.nowPlaying;
  if (!tx.state.playing || !now) throw new RoomError(409, MESSAGES.nothingPlaying);
  if (member.tokenRole === "guest") throw new RoomError(403, MESSAGES.guestGrab);
  if (now.song.songId !== songId) throw new RoomError(409, MESSAGES.songChanged);
  const data = tx.live.allUserData[member.uuid];
  if (!data) throw new RoomError(403, MESSAGES.notInRoom);
  if (!data.songVotes.grab) {
    tx.editUserData({ [member.uuid]: { ...data, songVotes: { ...data.songVotes, grab: true } } });
    tx.setLive({ grabs: tx.live.grabs + 1 });
    tx.emit("grabbedSong");
  }
  tx.out.reply = { ok: true, result: { added, grabs: tx.live.grabs } };
}

export function counted(v: SongVotes): VoteCounts {
  return { likes: v.like === true ? 1 : 0, dislikes: v.like === false ? 1 : 0, stars: v.star === true ? 1 : 0 };
}

/**
 * The votes that carry weight (season points, vote-skip): one per signed-in person. Guests are free to mint and bots
 * are run by their owners, so a flood of either shows in the room's counts and never pays or skips.
 */
export function weighedVotes(tx: Tx): VoteCounts & { audience: number } {
  const out = { likes: 0, dislikes: 0, stars: 0, audience: 0 };
  const djUuid = tx.state.playing?.djUuid;
  for (const [uuid, data] of Object.entries(tx.live.allUserData)) {
    if (tx.member(uuid)?.tokenRole !== "user" || uuid === djUuid) continue;
    out.audience++;
    const v = counted(data.songVotes);
    out.likes += v.likes;
    out.dislikes += v.dislikes;
    out.stars += v.stars;
  }
  return out;
}

/** Records a vote on the song playing; true when it brings the dislikes past the room's vote-skip threshold. */
export function vote(tx: Tx, member: Member, given: { like?: boolean; star?: boolean }): boolean {
  const playing = tx.state.playing;
  const now = tx.live.nowPlaying;
  if (!playing || !now) throw new RoomError(409, MESSAGES.nothingPlaying);
  if (playing.djUuid === member.uuid) throw new RoomError(403, MESSAGES.ownSong);
  if (given.star && member.tokenRole === "guest") throw new RoomError(403, MESSAGES.guestStar);
  const data = tx.live.allUserData[member.uuid];
  if (!data) throw new RoomError(403, MESSAGES.notInRoom);
  const before = data.songVotes;
  const after: SongVotes = before.grab ? { grab: true } : {};
  const like = given.like ?? before.like;
  const star = given.star ?? before.star;
  if (like !== undefined) after.like = like;
  if (star !== undefined) after.star = star;
  const [b, a] = [counted(before), counted(after)];
  const c = tx.live.voteCounts;
  tx.editUserData({ [member.uuid]: { ...data, songVotes: after } });
  tx.setLive({
    voteCounts: {
      likes: c.likes - b.likes + a.likes,
      dislikes: c.dislikes - b.dislikes + a.dislikes,
      stars: c.stars - b.stars + a.stars,
    },
  });
  if (after.star && !before.star) tx.effect({ type: "addToLikes", userUuid: member.uuid, song: now.song });
  tx.emit("votedOnSong");
  const threshold = tx.live.settings.voteSkipThreshold ?? null;
  if (threshold === null || threshold <= 0 || after.like !== false || member.tokenRole !== "user") return false;
  const weighed = weighedVotes(tx);
  return weighed.dislikes > threshold * Math.max(1, weighed.audience);
}
