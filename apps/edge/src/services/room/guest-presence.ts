import { TOKEN_TTL } from "../../lib/tokens.ts";
import type { Cache } from "../../ports/cache.ts";

// Guests have no account row, so room_presence cannot hold them; the cache does, for as long as a guest token lives.
// The entry is written when the live room admits the guest (its join call carries the guest's own token) and removed
// when the room reports them gone.
const key = (roomUuid: string, guestUuid: string) => `guest-presence:${roomUuid}:${guestUuid}`;

export const guestJoined = (cache: Cache, roomUuid: string, guestUuid: string) =>
  cache.set(key(roomUuid, guestUuid), "1", TOKEN_TTL.guest);

export const guestLeft = (cache: Cache, roomUuid: string, guestUuid: string) => cache.del(key(roomUuid, guestUuid));

export const guestIsIn = async (cache: Cache, roomUuid: string, guestUuid: string) =>
  (await cache.get(key(roomUuid, guestUuid))) !== null;
