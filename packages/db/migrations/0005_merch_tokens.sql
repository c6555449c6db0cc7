CREATE TABLE "consumable_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_uuid" uuid NOT NULL,
	"consumable_id" uuid NOT NULL,
	"room_uuid" uuid NOT NULL,
	"token_cost" integer NOT NULL,
	"hold_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consumables" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"token_cost" integer NOT NULL,
	"display_type" text DEFAULT 'small' NOT NULL,
	"file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consumables_cost_positive" CHECK ("consumables"."token_cost" > 0)
);
--> statement-breakpoint
CREATE TABLE "merch_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_uuid" uuid NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "token_accounts_userUuid_unique" UNIQUE("user_uuid"),
	CONSTRAINT "token_accounts_balance_nonnegative" CHECK ("token_accounts"."balance" >= 0),
	CONSTRAINT "token_accounts_held_nonnegative" CHECK ("token_accounts"."held" >= 0)
);
--> statement-breakpoint
CREATE TABLE "token_bundles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" text NOT NULL,
	"name" text NOT NULL,
	"tokens" integer NOT NULL,
	"thumbnail_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "token_bundles_productId_unique" UNIQUE("product_id")
);
--> statement-breakpoint
CREATE TABLE "token_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"amount" integer NOT NULL,
	"hold_id" uuid,
	"reason" text,
	"reference_type" text,
	"reference_id" text,
	"idempotency_key" text,
	"balance_after" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "token_transactions_amount_positive" CHECK ("token_transactions"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "consumable_purchases" ADD CONSTRAINT "consumable_purchases_account_id_token_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."token_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consumable_purchases" ADD CONSTRAINT "consumable_purchases_consumable_id_consumables_id_fk" FOREIGN KEY ("consumable_id") REFERENCES "public"."consumables"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consumables" ADD CONSTRAINT "consumables_file_id_merch_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."merch_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_accounts" ADD CONSTRAINT "token_accounts_user_uuid_users_uuid_fk" FOREIGN KEY ("user_uuid") REFERENCES "public"."users"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_bundles" ADD CONSTRAINT "token_bundles_thumbnail_file_id_merch_files_id_fk" FOREIGN KEY ("thumbnail_file_id") REFERENCES "public"."merch_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_transactions" ADD CONSTRAINT "token_transactions_account_id_token_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."token_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consumable_purchases_room_idx" ON "consumable_purchases" USING btree ("room_uuid","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "token_transactions_hold_resolved_key" ON "token_transactions" USING btree ("hold_id") WHERE "token_transactions"."hold_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "token_transactions_idempotency_key" ON "token_transactions" USING btree ("account_id","idempotency_key") WHERE "token_transactions"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "token_transactions_account_idx" ON "token_transactions" USING btree ("account_id","created_at");