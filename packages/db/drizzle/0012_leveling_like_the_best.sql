-- Leveling as the best bots do it (issue 23): no-XP channels and roles, the admin's own level-up
-- message and where it goes, reward modes and the public leaderboard's visibility; members whose
-- rewards an XP tool (set, reset, import) made due; the channel a level-up was earned in.
ALTER TABLE "leveling_settings" ADD COLUMN "no_xp_channels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "no_xp_roles" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "level_up_message" text DEFAULT '🎉 {user} reached **level {level}**!' NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "level_up_destination" text DEFAULT 'channel' NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "reward_mode" text DEFAULT 'stack' NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "leaderboard_visibility" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "member_xp" ADD COLUMN "rewards_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pending_level_ups" ADD COLUMN "channel_id" text;