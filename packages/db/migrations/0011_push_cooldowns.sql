CREATE TABLE "push_cooldowns" (
	"key" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
