ALTER TABLE "guild_configs" ALTER COLUMN "data" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "guild_configs" ALTER COLUMN "data" SET DEFAULT '{}'::json;