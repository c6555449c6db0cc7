import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { id, updatedAt } from "./columns.ts";
import { SongUploadStatus, TranscodingStatus, values } from "./enums.ts";
import { songs } from "./playlist.ts";

export interface SongTags {
  title?: string | null;
  artist?: string | null;
  album?: string | null;
  year?: number | null;
  genre?: string | null;
  comment?: string | null;
  track?: number | null;
}

/** An uploaded song: the file, its tags, its verification and its HLS transcoding. */
export const songUploads = pgTable(
  "song_uploads",
  {
    id: id(),
    ownerUuid: uuid().notNull(),
    originalName: text().notNull(),
    status: text({ enum: values(SongUploadStatus) })
      .notNull()
      .default("PENDING_UPLOAD"),
    transcodingStatus: text({ enum: values(TranscodingStatus) })
      .notNull()
      .default("WAITING_FOR_TRANSCODING"),
    contentType: text(),
    size: integer(),
    duration: integer(),
    tags: jsonb().$type<SongTags>().notNull().default({}),
    hasCover: integer().notNull().default(0),
    songId: uuid().references(() => songs.id, { onDelete: "set null" }),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [index("song_uploads_owner_idx").on(t.ownerUuid, t.createdAt)],
);
