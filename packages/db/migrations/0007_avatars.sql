CREATE TABLE "avatar_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"avatar_slug" text NOT NULL,
	"user_uuid" uuid NOT NULL,
	"assignment_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "avatars" (
	"slug" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'PUBLIC' NOT NULL,
	"season_id" uuid,
	"min_points" integer,
	"discord_only" boolean DEFAULT false NOT NULL,
	"file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "avatar_assignments" ADD CONSTRAINT "avatar_assignments_avatar_slug_avatars_slug_fk" FOREIGN KEY ("avatar_slug") REFERENCES "public"."avatars"("slug") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "avatar_assignments" ADD CONSTRAINT "avatar_assignments_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avatars" ADD CONSTRAINT "avatars_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "avatars" ADD CONSTRAINT "avatars_file_id_merch_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."merch_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "avatar_assignments_pair_key" ON "avatar_assignments" USING btree ("avatar_slug","user_uuid");--> statement-breakpoint
CREATE INDEX "avatar_assignments_user_idx" ON "avatar_assignments" USING btree ("user_uuid");