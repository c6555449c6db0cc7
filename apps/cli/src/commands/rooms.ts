import { type BoothCommand, type Context, table } from "../context.ts";

const many = (value: string, previous: string[] = []) => [...previous, value];
const COLUMNS = ["uuid", "slug", "name", "type", "numberOfDjs", "numberOfUsersInRoom", "promoted"];

interface SettingsOptions {
  slug?: string;
  description?: string;
  djs?: string;
  songsPerDj?: string;
  size?: string;
  private?: boolean;
  unlisted?: boolean;
  djType?: string;
  password?: string;
  waitlist?: string;
  idleDj?: string;
  roomCrate?: string;
}

function onOff(value: string) {
  if (value === "on") return true;
  if (value === "off") return false;
  throw new Error(`--waitlist takes on or off, not ${value}`);
}

function minutes(value: string) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 240)
    throw new Error(`--idle-dj takes minutes from 1 to 240 or off, not ${value}`);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function crateId(value: string) {
  if (value === "none") return null;
  if (!UUID.test(value)) throw new Error(`--room-crate takes a crate's id or none, not ${value}`);
  return value;
}

/** The room settings the flags give, in the edge's field names. */
function settingsFrom(o: SettingsOptions) {
  const n = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const settings = {
    slug: o.slug,
    description: o.description,
    numberOfDjs: n(o.djs),
    songsPerDj: o.songsPerDj === "none" ? null : n(o.songsPerDj),
    roomSize: n(o.size),
    type: o.private === undefined ? undefined : o.private ? "PRIVATE" : "PUBLIC",
    unlisted: o.unlisted,
    djType: o.djType,
    password: o.password === "none" ? null : o.password,
    waitlistEnabled: o.waitlist === undefined ? undefined : onOff(o.waitlist),
    idleDjMinutes: o.idleDj === undefined ? undefined : o.idleDj === "off" ? null : minutes(o.idleDj),
    roomCrateId: o.roomCrate === undefined ? undefined : crateId(o.roomCrate),
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

const withSettings = (command: BoothCommand) =>
  command
    .option("--slug <slug>", "its address (made from the name when not given)")
    .option("--description <text>")
    .option("--djs <n>", "DJ seats")
    .option("--songs-per-dj <n>", "songs a DJ plays before stepping down ('none': no limit)")
    .option("--size <n>", "how many people fit")
    .option("--private", "a private room")
    .option("--unlisted", "left out of the public lists")
    .option("--dj-type <type>", "who may DJ: EVERYONE, INVITE_ONLY, VERIFIED_ONLY, PRO_PLAN_OWNER")
    .option("--password <password>", "a room password ('none' removes it)")
    .option("--waitlist <on|off>", "a full booth has a waitlist: who wants a seat lines up for the next one")
    .option("--idle-dj <minutes|off>", "a DJ idle this long while not playing leaves the booth, warned a minute before")
    .option(
      "--room-crate <crateId|none>",
      "one of the owner's crates the room plays while no DJ has a song ('none' stops it)",
    );

/** A room list as a page, whichever shape the route answers (a list, or `{data, total}`). */
function listPage(data: unknown) {
  const list = (Array.isArray(data) ? data : ((data as { data?: unknown[] } | undefined)?.data ?? [])) as Record<
    string,
    unknown
  >[];
  return { data: list, total: list.length };
}

/** A room by slug or uuid. */
export async function findRoom(ctx: Context, key: string) {
  const { data } = await ctx.client.room.GET("/rooms/{slug}", { params: { path: { slug: key } } });
  if (!data) throw new Error(`no room ${key}`);
  return data;
}

export function roomCommands(program: BoothCommand) {
  const rooms = program
    .command("rooms")
    .description("Rooms: create, list, show, promote, reset (staff for others' rooms)");
  withSettings(
    rooms
      .command("create <name>")
      .description("Create a room you own (or, staff, give it to --owner)")
      .option("--owner <userUuid>", "hand the new room to this user (staff)")
      .json(),
  )
    .examples(
      "booth rooms create 'Friday Disco' --djs 3 --songs-per-dj 2",
      "booth rooms create 'Late Lounge' --slug late-lounge --owner 5f0c2a8e-... --json",
    )
    .run(async (ctx, name: string, options: SettingsOptions & { owner?: string }) => {
      const { data: created } = await ctx.client.room.POST("/rooms/infrastructure", {
        body: { name, ...settingsFrom(options) } as never,
      });
      let room: unknown = created;
      if (options.owner && created) {
        const { data } = await ctx.client.room.PATCH("/rooms/admin/{id}", {
          params: { path: { id: created.uuid } },
          body: { ownerUuid: options.owner },
        });
        room = data;
      }
      ctx.print(room, () => `Created room ${created?.name} at /${created?.slug} (${created?.uuid})`);
    });
  rooms
    .command("list")
    .description("Public rooms, busiest first; --all lists every room (staff) with the admin filter and sort syntax")
    .option("--all", "every room, private and unlisted too (staff)")
    .option("--promoted", "the promoted rooms")
    .option("--mine", "the rooms you own")
    .option("-f, --filter <field||$op||value>", "with --all: a filter, repeatable", many)
    .option("-s, --sort <field,ASC|DESC>", "with --all: a sort, repeatable", many)
    .option("--limit <n>", "how many", "50")
    .option("--offset <n>", "from", "0")
    .json()
    .examples(
      "booth rooms list",
      "booth rooms list --all -f 'type||$eq||PRIVATE' -s createdAt,DESC --json",
      "booth rooms list --promoted",
    )
    .run(
      async (
        ctx,
        o: {
          all?: boolean;
          promoted?: boolean;
          mine?: boolean;
          filter?: string[];
          sort?: string[];
          limit: string;
          offset: string;
        },
      ) => {
        const limit = Number(o.limit);
        const offset = Number(o.offset);
        let page: { data: Record<string, unknown>[]; total: number };
        if (o.all) {
          const { data } = await ctx.client.room.GET("/admin/rooms", {
            params: { query: { filter: o.filter, sort: o.sort, limit, offset } as never },
          });
          page = { data: (data?.data ?? []) as Record<string, unknown>[], total: data?.total ?? 0 };
        } else if (o.promoted) {
          const { data } = await ctx.client.room.GET("/rooms/promoted-rooms", { params: { query: {} } });
          page = listPage(data);
        } else if (o.mine) {
          const { data } = await ctx.client.room.GET("/rooms/owned-rooms/list");
          page = listPage(data);
        } else {
          const { data } = await ctx.client.room.GET("/rooms/public", { params: { query: { limit, offset } } });
          page = { data: (data?.data ?? []) as Record<string, unknown>[], total: data?.total ?? 0 };
        }
        ctx.print(page, () => `${table(page.data, COLUMNS)}\n${page.total} in all`);
      },
    );
  rooms
    .command("show <room>")
    .description("A room by slug or uuid; --live adds what its live room shows now")
    .option("--live", "the booth, what plays, the votes")
    .json()
    .examples("booth rooms show friday-disco", "booth rooms show friday-disco --live --json")
    .run(async (ctx, key: string, o: { live?: boolean }) => {
      const room = await findRoom(ctx, key);
      if (!o.live) return ctx.print(room);
      const { data } = await ctx.client.room.GET("/rooms/room-state/{id}", { params: { path: { id: room.uuid } } });
      const state = (data?.state ?? {}) as {
        djs?: { uuid: string }[];
        nowPlaying?: { song: { trackName: string; artistName: string } } | null;
        allUsers?: unknown[];
        voteCounts?: { likes: number; dislikes: number; stars: number };
      };
      ctx.print({ room, state }, () =>
        [
          `${room.name} (/${room.slug}) ${room.uuid}`,
          `people: ${state.allUsers?.length ?? 0}; DJs: ${state.djs?.map((d) => d.uuid).join(", ") || "(none)"}`,
          `playing: ${state.nowPlaying ? `${state.nowPlaying.song.trackName} by ${state.nowPlaying.song.artistName}` : "(nothing)"}`,
          `votes: ${JSON.stringify(state.voteCounts ?? {})}`,
        ].join("\n"),
      );
    });
  withSettings(
    rooms
      .command("update <room>")
      .description("Change a room's settings (staff, any room)")
      .option("--name <name>")
      .option("--owner <userUuid>", "a new owner")
      .json(),
  )
    .examples(
      "booth rooms update friday-disco --djs 5 --songs-per-dj none",
      "booth rooms update friday-disco --waitlist on",
      "booth rooms update friday-disco --room-crate 7d1e9a40-...",
      "booth rooms update friday-disco --owner 5f0c2a8e-...",
    )
    .run(async (ctx, key: string, o: SettingsOptions & { name?: string; owner?: string }) => {
      const room = await findRoom(ctx, key);
      const body = {
        ...settingsFrom(o),
        ...(o.name ? { name: o.name } : {}),
        ...(o.owner ? { ownerUuid: o.owner } : {}),
      };
      if (Object.keys(body).length === 0) throw new Error("nothing to change");
      const { data } = await ctx.client.room.PATCH("/rooms/admin/{id}", {
        params: { path: { id: room.uuid } },
        body: body as never,
      });
      ctx.print(data, () => `Updated ${data?.name} (/${data?.slug})`);
    });
  rooms
    .command("promote <room>")
    .description("Promote a room (or with --off stop), optionally only to listeners of some music providers")
    .option("--off", "stop promoting it")
    .option("--providers <list>", "comma-separated providers, e.g. spotify,apple")
    .json()
    .examples(
      "booth rooms promote friday-disco",
      "booth rooms promote friday-disco --providers spotify,apple",
      "booth rooms promote friday-disco --off",
    )
    .run(async (ctx, key: string, o: { off?: boolean; providers?: string }) => {
      const room = await findRoom(ctx, key);
      const { data } = await ctx.client.room.PATCH("/rooms/promote/{id}/infrastructure", {
        params: { path: { id: room.uuid } },
        body: {
          promoted: !o.off,
          ...(o.providers && !o.off ? { providers: o.providers.split(",").map((p) => p.trim()) } : {}),
        },
      });
      ctx.print(data, () => `${data?.name} is ${o.off ? "no longer promoted" : "promoted"}`);
    });
  rooms
    .command("plays <room>")
    .description("The songs a room played, newest first")
    .option("--limit <n>", "how many", "20")
    .json()
    .examples("booth rooms plays friday-disco --limit 5")
    .run(async (ctx, key: string, o: { limit: string }) => {
      const { data } = await ctx.client.room.GET("/rooms/{slug}/recent-songs", {
        params: { path: { slug: key }, query: { limit: Number(o.limit) } },
      });
      const rows = (data?.data ?? []).map((p) => ({
        playedAt: p.playedAt,
        track: `${p.song.trackName} by ${p.song.artistName}`,
        djUuid: p.djUuid,
        likes: p.voteCounts.likes,
        stars: p.voteCounts.stars,
      }));
      ctx.print(data, () => `${table(rows, ["playedAt", "track", "djUuid", "likes", "stars"])}\n${data?.total} in all`);
    });
  rooms
    .command("delete <room>")
    .description("Delete a room: its live room resets and everyone leaves")
    .examples("booth rooms delete friday-disco")
    .run(async (ctx, key: string) => {
      const room = await findRoom(ctx, key);
      await ctx.client.room.DELETE("/rooms/{id}/infrastructure", { params: { path: { id: room.uuid } } });
      console.log(`Deleted ${room.name}`);
    });
  rooms
    .command("reset <room>")
    .description(
      "Reset a live room (its owner; global moderators and up): the booth, votes and chat start over, everyone reconnects",
    )
    .json()
    .examples("booth rooms reset friday-disco")
    .run(async (ctx, key: string) => {
      const room = await findRoom(ctx, key);
      await ctx.client.room.POST("/rooms/reset/{id}/infrastructure", { params: { path: { id: room.uuid } } });
      ctx.print({ roomUuid: room.uuid, reset: true }, () => `${room.name}: the live room was reset`);
    });
}
