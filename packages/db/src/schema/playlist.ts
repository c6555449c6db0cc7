import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cascadeRef, createdAt, id, timestamps } from "./columns.ts";
import { CrateKind, ImportStatus, values } from "./enums.ts";
import { users } from "./user.ts";

export const artists = pgTable("artists", {
  id: id(),
  shortId: text().notNull().unique(),
  name: text().notNull(),
  createdAt: createdAt(),
});

export const albums = pgTable(
  "albums",
  {
    id: id(),
    shortId: text().notNull().unique(),
    title: text().notNull(),
    artistId: uuid().references(() => artists.id, { onDelete: "set null" }),
    releaseYear: integer(),
    thumbnails: jsonb().$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (t) => [index("albums_artist_idx").on(t.artistId)],
);

export const genres = pgTable("genres", {
  id: id(),
  name: text().notNull().unique(),
  createdAt: createdAt(),
});

/** The catalogue: seeded albums, uploads and generated songs. */
export const songs = pgTable(
  "songs",
  {
    id: id(),
    shortId: text().notNull().unique(),
    trackName: text().notNull(),
    artistName: text().notNull(),
    albumId: uuid().references(() => albums.id, { onDelete: "set null" }),
    artistId: uuid().references(() => artists.id, { onDelete: "set null" }),
    genre: text(),
    duration: integer().notNull().default(0),
    explicit: boolean().notNull().default(false),
    isrc: text(),
    musicProviders: jsonb().$type<Record<string, string>>().notNull().default({}),
    thumbnails: jsonb().$type<Record<string, string>>().notNull().default({}),
    links: jsonb().$type<Record<string, string>>().notNull().default({}),
    previews: jsonb().$type<Record<string, string>>().notNull().default({}),
    streamUrls: jsonb().$type<Record<string, string>>().notNull().default({}),
    description: text(),
    isGenerated: boolean().notNull().default(false),
    /** The latest music analysis received for the song (Cyanite webhook). */
    analysis: jsonb(),
    releaseYear: integer(),
    ownerUuid: uuid(),
    createdAt: createdAt(),
  },
  (t) => [
    index("songs_search_idx").using(
      "gin",
      sql`to_tsvector('simple', ${t.trackName} || ' ' || ${t.artistName} || ' ' || coalesce(${t.genre}, ''))`,
    ),
    index("songs_isrc_idx").on(t.isrc),
    index("songs_album_idx").on(t.albumId),
  ],
);

/** A user's playlist; each user also has exactly one queue crate and one likes crate. */
export const crates = pgTable(
  "crates",
  {
    id: id(),
    shortId: text().notNull().unique(),
    userUuid: cascadeRef(() => users.uuid),
    kind: text({ enum: values(CrateKind) })
      .notNull()
      .default("default"),
    name: text().notNull(),
    description: text(),
    importStatus: text({ enum: values(ImportStatus) }),
    importMessage: text(),
    currentPosition: integer().notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("crates_user_idx").on(t.userUuid, t.createdAt),
    uniqueIndex("crates_special_key").on(t.userUuid, t.kind).where(sql`${t.kind} <> 'default'`),
  ],
);

/** A song in a crate. Positions are 0..n-1, dense; changes lock the crate row so concurrent edits serialise. */
export const crateSongs = pgTable(
  "crate_songs",
  {
    id: id(),
    crateId: cascadeRef(() => crates.id),
    songId: cascadeRef(() => songs.id),
    position: integer().notNull(),
    addedAt: createdAt(),
  },
  (t) => [index("crate_songs_crate_idx").on(t.crateId, t.position)],
);
