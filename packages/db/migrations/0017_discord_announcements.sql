CREATE TABLE "discord_announced" (
	"room_uuid" uuid NOT NULL,
	"dj_uuid" uuid NOT NULL,
	"start_id" uuid NOT NULL,
	"announced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "discord_announced_room_uuid_dj_uuid_pk" PRIMARY KEY("room_uuid","dj_uuid")
);
--> statement-breakpoint
CREATE TABLE "discord_announcements" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"channel_id" text,
	"changed_by" text,
	"off_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discord_announced" ADD CONSTRAINT "discord_announced_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;