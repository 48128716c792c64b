CREATE TABLE "xp_flush_batches" (
	"batch_id" text PRIMARY KEY NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "member_daily_xp" ADD COLUMN "messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_daily_xp" ADD COLUMN "level_ups" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_xp" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "member_xp" ADD COLUMN "avatar" text;