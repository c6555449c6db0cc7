CREATE TABLE "communities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text,
	"is_public" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "community_members" (
	"community_id" uuid NOT NULL,
	"user_uuid" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "community_members_community_id_user_uuid_pk" PRIMARY KEY("community_id","user_uuid")
);
--> statement-breakpoint
CREATE TABLE "community_rooms" (
	"community_id" uuid NOT NULL,
	"room_uuid" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "community_rooms_community_id_room_uuid_pk" PRIMARY KEY("community_id","room_uuid")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text,
	"room_uuid" uuid,
	"host_uuid" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room_favorites" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"room_uuid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room_plays" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_uuid" uuid NOT NULL,
	"dj_uuid" uuid,
	"song" jsonb NOT NULL,
	"vote_counts" jsonb NOT NULL,
	"duration_seconds" integer DEFAULT 0 NOT NULL,
	"played_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room_presence" (
	"room_uuid" uuid NOT NULL,
	"user_uuid" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "room_presence_room_uuid_user_uuid_pk" PRIMARY KEY("room_uuid","user_uuid")
);
--> statement-breakpoint
CREATE TABLE "room_user_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"room_uuid" uuid NOT NULL,
	"user_uuid" uuid NOT NULL,
	"role" text NOT NULL,
	"expiration_time" timestamp with time zone,
	"granted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "room_visits" (
	"user_uuid" uuid NOT NULL,
	"room_uuid" uuid NOT NULL,
	"visited_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "room_visits_user_uuid_room_uuid_pk" PRIMARY KEY("user_uuid","room_uuid")
);
--> statement-breakpoint
CREATE TABLE "rooms" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"vibe" text,
	"type" text DEFAULT 'PUBLIC' NOT NULL,
	"unlisted" boolean DEFAULT false NOT NULL,
	"dj_type" text DEFAULT 'EVERYONE' NOT NULL,
	"music_provider_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"number_of_djs" integer DEFAULT 5 NOT NULL,
	"songs_per_dj" integer,
	"room_size" integer DEFAULT 500 NOT NULL,
	"entry_fee" integer DEFAULT 0 NOT NULL,
	"free_entries" integer DEFAULT 0 NOT NULL,
	"password_hash" text,
	"guest_password_hash" text,
	"promoted" boolean DEFAULT false NOT NULL,
	"promoted_providers" text[] DEFAULT '{}'::text[] NOT NULL,
	"pinned_messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"design" text DEFAULT 'CLUB' NOT NULL,
	"is_live" boolean DEFAULT false NOT NULL,
	"live_audio" boolean DEFAULT false NOT NULL,
	"has_chat" boolean DEFAULT true NOT NULL,
	"vote_skip_threshold" double precision,
	"poster_url" text,
	"external_url" text,
	"now_playing" jsonb,
	"number_of_active_djs" integer DEFAULT 0 NOT NULL,
	"discord_guild_id" text,
	"conversation_id" text,
	"owner_uuid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "community_members" ADD CONSTRAINT "community_members_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_members" ADD CONSTRAINT "community_members_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_rooms" ADD CONSTRAINT "community_rooms_community_id_communities_id_fk" FOREIGN KEY ("community_id") REFERENCES "public"."communities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_rooms" ADD CONSTRAINT "community_rooms_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_host_uuid_users_uuid_fk" FOREIGN KEY ("host_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_favorites" ADD CONSTRAINT "room_favorites_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_favorites" ADD CONSTRAINT "room_favorites_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_plays" ADD CONSTRAINT "room_plays_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_presence" ADD CONSTRAINT "room_presence_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_presence" ADD CONSTRAINT "room_presence_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_user_roles" ADD CONSTRAINT "room_user_roles_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_user_roles" ADD CONSTRAINT "room_user_roles_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_visits" ADD CONSTRAINT "room_visits_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_visits" ADD CONSTRAINT "room_visits_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_owner_uuid_users_uuid_fk" FOREIGN KEY ("owner_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "communities_slug_key" ON "communities" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "community_members_user_idx" ON "community_members" USING btree ("user_uuid");--> statement-breakpoint
CREATE INDEX "community_rooms_room_idx" ON "community_rooms" USING btree ("room_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "events_slug_key" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "events_starts_idx" ON "events" USING btree ("starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "room_favorites_pair_key" ON "room_favorites" USING btree ("user_uuid","room_uuid");--> statement-breakpoint
CREATE INDEX "room_plays_room_idx" ON "room_plays" USING btree ("room_uuid","played_at");--> statement-breakpoint
CREATE INDEX "room_presence_user_idx" ON "room_presence" USING btree ("user_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "room_user_roles_key" ON "room_user_roles" USING btree ("room_uuid","user_uuid","role");--> statement-breakpoint
CREATE INDEX "room_user_roles_user_idx" ON "room_user_roles" USING btree ("user_uuid");--> statement-breakpoint
CREATE INDEX "room_visits_user_idx" ON "room_visits" USING btree ("user_uuid","visited_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rooms_slug_key" ON "rooms" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "rooms_owner_idx" ON "rooms" USING btree ("owner_uuid");--> statement-breakpoint
CREATE INDEX "rooms_discord_idx" ON "rooms" USING btree ("discord_guild_id");