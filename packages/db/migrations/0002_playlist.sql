CREATE TABLE "albums" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"short_id" text NOT NULL,
	"title" text NOT NULL,
	"artist_id" uuid,
	"release_year" integer,
	"thumbnails" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "albums_shortId_unique" UNIQUE("short_id")
);
--> statement-breakpoint
CREATE TABLE "artists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"short_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artists_shortId_unique" UNIQUE("short_id")
);
--> statement-breakpoint
CREATE TABLE "crate_songs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"crate_id" uuid NOT NULL,
	"song_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"short_id" text NOT NULL,
	"user_uuid" uuid NOT NULL,
	"kind" text DEFAULT 'default' NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"import_status" text,
	"import_message" text,
	"current_position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crates_shortId_unique" UNIQUE("short_id")
);
--> statement-breakpoint
CREATE TABLE "genres" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "genres_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "songs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"short_id" text NOT NULL,
	"track_name" text NOT NULL,
	"artist_name" text NOT NULL,
	"album_id" uuid,
	"artist_id" uuid,
	"genre" text,
	"duration" integer DEFAULT 0 NOT NULL,
	"explicit" boolean DEFAULT false NOT NULL,
	"isrc" text,
	"music_providers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"thumbnails" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"links" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"previews" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stream_urls" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"description" text,
	"is_generated" boolean DEFAULT false NOT NULL,
	"release_year" integer,
	"owner_uuid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "songs_shortId_unique" UNIQUE("short_id")
);
--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crate_songs" ADD CONSTRAINT "crate_songs_crate_id_crates_id_fk" FOREIGN KEY ("crate_id") REFERENCES "public"."crates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crate_songs" ADD CONSTRAINT "crate_songs_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crates" ADD CONSTRAINT "crates_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "songs" ADD CONSTRAINT "songs_artist_id_artists_id_fk" FOREIGN KEY ("artist_id") REFERENCES "public"."artists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "albums_artist_idx" ON "albums" USING btree ("artist_id");--> statement-breakpoint
CREATE INDEX "crate_songs_crate_idx" ON "crate_songs" USING btree ("crate_id","position");--> statement-breakpoint
CREATE INDEX "crates_user_idx" ON "crates" USING btree ("user_uuid","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "crates_special_key" ON "crates" USING btree ("user_uuid","kind") WHERE "crates"."kind" <> 'default';--> statement-breakpoint
CREATE INDEX "songs_search_idx" ON "songs" USING gin (to_tsvector('simple', "track_name" || ' ' || "artist_name" || ' ' || coalesce("genre", '')));--> statement-breakpoint
CREATE INDEX "songs_isrc_idx" ON "songs" USING btree ("isrc");--> statement-breakpoint
CREATE INDEX "songs_album_idx" ON "songs" USING btree ("album_id");