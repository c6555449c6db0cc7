import { BoothApiError, createBoothClient } from "@booth/sdk";
import type { Progress } from "../progress.ts";
import {
  DEMO_AVATARS,
  DEMO_CATALOGUE_EMAIL,
  DEMO_ROOMS,
  DEMO_SEASON_DAYS,
  DEMO_USERS,
  type DemoUser,
  demoEmail,
  PICKS_SONGS,
  picksCrateName,
  QUEUE_SONGS,
} from "./demo-data.ts";

type Client = ReturnType<typeof createBoothClient>;
export interface Tally {
  created: number;
  existing: number;
}
export interface SeedResult {
  catalogue: { tracks: number };
  users: Tally;
  rooms: Tally;
  crates: Tally;
  avatars: Tally;
  season: Tally & { id: string; name: string };
  password: string;
}

export interface SeedOptions {
  baseUrl: string;
  /** An admin's client. */
  admin: Client;
  /** The demo users' password (kept for new accounts; used to sign in as them). */
  password: string;
  /** How many demo tracks to wait for. */
  demoTracks: number;
  /** How long to wait for them, in milliseconds. */
  waitMs: number;
  progress: Progress;
  sleep?: (ms: number) => Promise<void>;
}

/** The steps besides the catalogue, for the progress bar. */
export const SEED_STEPS = DEMO_USERS.length * 3 + DEMO_ROOMS.length + DEMO_AVATARS.length + 1;

const isStatus = (err: unknown, status: number) => err instanceof BoothApiError && err.status === status;
const tally = (): Tally => ({ created: 0, existing: 0 });

/**
 * Loads the demo data into a running instance, through the API only. Each step looks for what it would make and
 * makes only what is missing, so a second run creates nothing.
 */
export async function seed(options: SeedOptions): Promise<SeedResult> {
  const { admin, progress } = options;
  const songs = await awaitCatalogue(options);

  const result: SeedResult = {
    catalogue: { tracks: songs.length },
    users: tally(),
    rooms: tally(),
    crates: tally(),
    avatars: tally(),
    season: { ...tally(), id: "", name: "" },
    password: options.password,
  };

  // Users, with their profiles.
  const { data: found } = await admin.user.GET("/admin/users", {
    params: {
      query: { filter: [`email||$in||${DEMO_USERS.map(demoEmail).join(",")}`], limit: 100 } as never,
    },
  });
  const existing = new Map(
    ((found?.data ?? []) as { email?: string | null; uuid?: string }[]).map((u) => [u.email, u.uuid]),
  );
  const uuids = new Map<string, string>();
  for (const user of DEMO_USERS) {
    const email = demoEmail(user);
    let uuid = existing.get(email);
    if (uuid) result.users.existing++;
    else {
      const { data } = await admin.user.POST("/users/admin/sign-up", {
        body: { email, password: options.password, nickname: user.nickname },
      });
      uuid = data?.uuid;
      if (!uuid) throw new Error(`creating ${email} answered nothing`);
      await admin.user.POST("/users/profile-admin", {
        body: { userUuid: uuid, firstName: user.firstName, color: user.color, pronoun: user.pronoun, bio: user.bio },
      });
      result.users.created++;
    }
    uuids.set(user.key, uuid);
    progress.tick(`users: ${user.nickname}`);
  }

  // Rooms and crates are made by their owners: a demo user signs in only when something of theirs is missing.
  const clients = new Map<string, Promise<Client>>();
  const clientOf = (user: DemoUser) => {
    let client = clients.get(user.key);
    if (!client) {
      client = signIn(options, user).then((token) => createBoothClient({ baseUrl: options.baseUrl, token }));
      clients.set(user.key, client);
    }
    return client;
  };
  const userByKey = (key: string) => {
    const user = DEMO_USERS.find((u) => u.key === key);
    if (!user) throw new Error(`no demo user ${key}`);
    return user;
  };

  // Rooms.
  for (const room of DEMO_ROOMS) {
    try {
      await admin.room.GET("/rooms/{slug}", { params: { path: { slug: room.slug } } });
      result.rooms.existing++;
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
      const owner = await clientOf(userByKey(room.owner));
      await owner.room.POST("/rooms/infrastructure", {
        body: {
          name: room.name,
          slug: room.slug,
          description: room.description,
          numberOfDjs: room.numberOfDjs,
          songsPerDj: room.songsPerDj,
          type: "PUBLIC",
          djType: "EVERYONE",
        },
      });
      result.rooms.created++;
    }
    progress.tick(`rooms: ${room.name}`);
  }

  // Crates: each user's queue, and a playlist of picks. The admin looks (service routes); the owner adds.
  const ids = songs.map((s) => s.songId);
  const slice = (from: number, n: number) => [
    ...new Set(
      ids.length
        ? Array.from({ length: Math.min(n, ids.length) }, (_, i) => ids[(from + i) % ids.length] as string)
        : [],
    ),
  ];
  for (const [i, user] of DEMO_USERS.entries()) {
    const userUuid = uuids.get(user.key) as string;
    const { data: crates } = await admin.playlist.GET("/crate/user/service/{userUuid}", {
      params: { path: { userUuid } },
    });
    const all = crates?.data ?? [];
    const songsOf = async (shortId: string) =>
      (await admin.playlist.GET("/crate/service/{crateShortId}/songs", { params: { path: { crateShortId: shortId } } }))
        .data ?? [];

    const queue = all.find((c) => c.kind === "queue");
    const queued = new Set(queue ? (await songsOf(queue.crateShortId)).map((s) => s.songId) : []);
    const missing = slice(i * QUEUE_SONGS, QUEUE_SONGS).filter((id) => !queued.has(id));
    if (missing.length) {
      const client = await clientOf(user);
      await client.playlist.POST("/crate/special/queue/songs", { body: { songIds: missing } });
      result.crates.created++;
    } else result.crates.existing++;
    progress.tick(`crates: ${user.firstName}'s queue`);

    const name = picksCrateName(user);
    if (all.some((c) => c.kind === "default" && c.crateName === name)) result.crates.existing++;
    else {
      const client = await clientOf(user);
      const { data: crate } = await client.playlist.POST("/crate", {
        body: { name, description: `${user.nickname}'s favourite demo tracks` },
      });
      const picks = slice(i * 3 + 1, PICKS_SONGS);
      if (crate && picks.length)
        await client.playlist.POST("/crate/{id}/songs", {
          params: { path: { id: crate.crateUuid } },
          body: { songIds: picks },
        });
      result.crates.created++;
    }
    progress.tick(`crates: ${name}`);
  }

  // The current season (any season running now will do).
  try {
    const { data } = await admin.merch.GET("/seasons/current");
    result.season = { created: 0, existing: 1, id: data?.id ?? "", name: data?.name ?? "" };
  } catch (err) {
    if (!isStatus(err, 404)) throw err;
    const start = new Date();
    const end = new Date(start.getTime() + DEMO_SEASON_DAYS * 86_400_000);
    const { data } = await admin.merch.POST("/points/season", {
      body: {
        name: `Demo season ${start.toISOString().slice(0, 10)}`,
        start: start.toISOString(),
        end: end.toISOString(),
      },
    });
    result.season = { created: 1, existing: 0, id: data?.id ?? "", name: data?.name ?? "" };
  }
  progress.tick(`season: ${result.season.name}`);

  // Avatars: a few for everyone, and an award for the season.
  const { data: avatars } = await admin.merch.GET("/admin/avatars");
  const slugs = new Set((avatars ?? []).map((a) => a.slug));
  for (const avatar of DEMO_AVATARS) {
    if (slugs.has(avatar.slug)) result.avatars.existing++;
    else {
      await admin.merch.POST("/avatars", {
        body: avatar.seasonAwardPoints
          ? {
              slug: avatar.slug,
              name: avatar.name,
              avatarStatus: "SEASON_AWARD",
              seasonId: result.season.id,
              minPoints: avatar.seasonAwardPoints,
            }
          : { slug: avatar.slug, name: avatar.name, avatarStatus: "PUBLIC" },
      } as never);
      result.avatars.created++;
    }
    progress.tick(`avatars: ${avatar.name}`);
  }
  return result;
}

async function signIn(options: SeedOptions, user: DemoUser) {
  const anonymous = createBoothClient({ baseUrl: options.baseUrl });
  try {
    const { data } = await anonymous.user.POST("/auth/login", {
      body: { email: demoEmail(user), password: options.password },
    });
    if (!data?.accessToken) throw new Error("the sign-in answered no token");
    return data.accessToken;
  } catch (err) {
    if (isStatus(err, 401))
      throw new Error(
        `${demoEmail(user)} exists with another password: run booth seed with the password it was seeded with (--password or BOOTH_DEMO_PASSWORD)`,
      );
    throw err;
  }
}

interface DemoSong {
  songId: string;
  title: string;
}

/** The demo catalogue's playable songs, as the public upload list shows them. */
async function demoCatalogue(admin: Client): Promise<DemoSong[]> {
  const { data: owners } = await admin.user.GET("/admin/users", {
    params: { query: { filter: [`email||$eq||${DEMO_CATALOGUE_EMAIL}`], limit: 1 } as never },
  });
  const owner = (owners?.data?.[0] as { uuid?: string } | undefined)?.uuid;
  if (!owner) return [];
  const songs: DemoSong[] = [];
  for (let offset = 0; ; offset += 1000) {
    const { data } = await admin.upload.GET("/songs/public", { params: { query: { limit: 1000, offset } } });
    for (const upload of data?.data ?? [])
      if (upload.ownerUuid === owner && upload.songId)
        songs.push({ songId: upload.songId, title: upload.tags.title ?? upload.originalName });
    if (!data || offset + 1000 >= data.total) break;
  }
  // Oldest first: the order the edge made them in.
  return songs.reverse();
}

/**
 * The edge makes the demo catalogue in the background when it starts (tracks synthesised with ffmpeg, then
 * transcoded): wait until the expected number of tracks is playable, moving the bar as they appear.
 */
async function awaitCatalogue(options: SeedOptions) {
  const { progress } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = Date.now() + options.waitMs;
  let shown = 0;
  let waitingSaid = false;
  for (;;) {
    const songs = await demoCatalogue(options.admin);
    const count = Math.min(songs.length, options.demoTracks);
    for (; shown < count; shown++) progress.tick(`catalogue: ${songs[shown]?.title ?? ""}`);
    if (songs.length >= options.demoTracks) return songs;
    if (Date.now() >= deadline)
      throw new Error(
        `the demo catalogue has ${songs.length} of ${options.demoTracks} tracks after ${Math.round(options.waitMs / 1000)} s. ` +
          "The edge makes it at start unless SEED_DEMO=false (its output shows 'Demo catalogue: n/20'); " +
          "wait longer with --wait, or give the number there is with --demo-tracks.",
      );
    if (!waitingSaid) {
      progress.note(
        `Waiting for the edge to finish the demo catalogue (${songs.length}/${options.demoTracks} tracks)...`,
      );
      waitingSaid = true;
    }
    await sleep(2000);
  }
}
