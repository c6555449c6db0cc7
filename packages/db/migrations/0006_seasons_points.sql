CREATE TABLE "point_awards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"reason" text,
	"room_uuid" uuid,
	"award_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking_statuses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"season_id" uuid NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone NOT NULL,
	"handled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seasons_name_unique" UNIQUE("name"),
	CONSTRAINT "seasons_start_before_end" CHECK ("seasons"."start" < "seasons"."end")
);
--> statement-breakpoint
ALTER TABLE "point_awards" ADD CONSTRAINT "point_awards_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_statuses" ADD CONSTRAINT "ranking_statuses_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranking_statuses" ADD CONSTRAINT "ranking_statuses_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "point_awards_key" ON "point_awards" USING btree ("award_key") WHERE "point_awards"."award_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ranking_statuses_user_season_key" ON "ranking_statuses" USING btree ("user_uuid","season_id");--> statement-breakpoint
CREATE INDEX "ranking_statuses_season_idx" ON "ranking_statuses" USING btree ("season_id","balance");--> statement-breakpoint
CREATE INDEX "seasons_start_idx" ON "seasons" USING btree ("start");