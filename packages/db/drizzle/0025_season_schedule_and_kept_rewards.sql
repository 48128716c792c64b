ALTER TABLE "leveling_settings" ADD COLUMN "season_keep_rewards" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "member_xp" ADD COLUMN "kept_level" integer DEFAULT 0 NOT NULL;