import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { CrateKind, ImportStatus, values } from "./enums.ts";
import { users } from "./user.ts";

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const artists = pgTable("artists", {
  id: uuid().primaryKey().defaultRandom(),
  shortId: text().notNull().unique(),
  name: text().notNull(),
  createdAt: createdAt(),
});

export const albums = pgTable(
  "albums",
  {
    id: uuid().primaryKey().defaultRandom(),
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
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  createdAt: createdAt(),
});

/** The catalogue: seeded albums, uploads and generated songs. */
export const songs = pgTable(
  "songs",
  {
    id: uuid().primaryKey().defaultRandom(),
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
    id: uuid().primaryKey().defaultRandom(),
    shortId: text().notNull().unique(),
    userUuid: uuid()
      .notNull()
      .references(() => users.uuid, { onDelete: "cascade" }),
    kind: text({ enum: values(CrateKind) })
      .notNull()
      .default("default"),
    name: text().notNull(),
    description: text(),
    importStatus: text({ enum: values(ImportStatus) }),
    importMessage: text(),
    currentPosition: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
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
    id: uuid().primaryKey().defaultRandom(),
    crateId: uuid()
      .notNull()
      .references(() => crates.id, { onDelete: "cascade" }),
    songId: uuid()
      .notNull()
      .references(() => songs.id, { onDelete: "cascade" }),
    position: integer().notNull(),
    addedAt: createdAt(),
  },
  (t) => [index("crate_songs_crate_idx").on(t.crateId, t.position)],
);
