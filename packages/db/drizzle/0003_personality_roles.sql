CREATE TABLE "personality_cleanup" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"channel_id" text,
	"name" text DEFAULT '' NOT NULL,
	CONSTRAINT "personality_cleanup_target_uq" UNIQUE("guild_id","kind","target_id")
);
--> statement-breakpoint
ALTER TABLE "personality_configs" ADD COLUMN "messages_posted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_configs" ADD COLUMN "onboarding_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_questions" ADD COLUMN "message_channel_id" text;--> statement-breakpoint
ALTER TABLE "personality_questions" ADD COLUMN "message_digest" text;--> statement-breakpoint
ALTER TABLE "personality_questions" ADD COLUMN "onboarding_prompt_id" text;