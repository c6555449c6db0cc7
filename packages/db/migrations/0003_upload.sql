CREATE TABLE "song_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uuid" uuid NOT NULL,
	"original_name" text NOT NULL,
	"status" text DEFAULT 'PENDING_UPLOAD' NOT NULL,
	"transcoding_status" text DEFAULT 'WAITING_FOR_TRANSCODING' NOT NULL,
	"content_type" text,
	"size" integer,
	"duration" integer,
	"tags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"has_cover" integer DEFAULT 0 NOT NULL,
	"song_id" uuid,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "song_uploads" ADD CONSTRAINT "song_uploads_song_id_songs_id_fk" FOREIGN KEY ("song_id") REFERENCES "public"."songs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "song_uploads_owner_idx" ON "song_uploads" USING btree ("owner_uuid","created_at");