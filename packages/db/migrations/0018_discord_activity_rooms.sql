CREATE TABLE "discord_activity_rooms" (
	"guild_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"room_uuid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discord_activity_rooms_guild_id_channel_id_pk" PRIMARY KEY("guild_id","channel_id")
);
--> statement-breakpoint
ALTER TABLE "discord_activity_rooms" ADD CONSTRAINT "discord_activity_rooms_room_uuid_rooms_uuid_fk" FOREIGN KEY ("room_uuid") REFERENCES "public"."rooms"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discord_activity_rooms_room_idx" ON "discord_activity_rooms" USING btree ("room_uuid");