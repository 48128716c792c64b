CREATE TABLE "leveling_season_members" (
	"season_id" integer NOT NULL,
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"xp" bigint NOT NULL,
	"level" integer NOT NULL,
	CONSTRAINT "leveling_season_members_pk" PRIMARY KEY("season_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "leveling_seasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone DEFAULT now() NOT NULL,
	"keep_rewards" boolean DEFAULT false NOT NULL,
	"automatic" boolean DEFAULT false NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"top" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rank_card_backgrounds" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"image" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_connections" (
	"user_id" text PRIMARY KEY NOT NULL,
	"guild_id" text,
	"access_token_enc" text NOT NULL,
	"refresh_token_enc" text,
	"token_expires_at" timestamp with time zone NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"pushed_level" integer,
	"pushed_xp" bigint,
	"pushed_at" timestamp with time zone,
	"push_due_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "xp_max" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
-- Until now every message earned xp_per_message: the range starts as that one amount.
UPDATE "leveling_settings" SET "xp_max" = "xp_per_message";--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "voice_xp_per_minute" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "voice_min_members" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "level_curve" jsonb;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "xp_decay" jsonb;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "rank_card_accent" text;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "season_months" integer;--> statement-breakpoint
ALTER TABLE "leveling_settings" ADD COLUMN "season_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "member_daily_xp" ADD COLUMN "voice_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_xp" ADD COLUMN "card_accent" text;--> statement-breakpoint
ALTER TABLE "member_xp" ADD COLUMN "decayed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leveling_season_members" ADD CONSTRAINT "leveling_season_members_season_id_leveling_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."leveling_seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leveling_season_members_member_idx" ON "leveling_season_members" USING btree ("guild_id","user_id");--> statement-breakpoint
CREATE INDEX "leveling_seasons_guild_idx" ON "leveling_seasons" USING btree ("guild_id","ended_at");--> statement-breakpoint
CREATE INDEX "role_connections_guild_idx" ON "role_connections" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "role_connections_push_due_idx" ON "role_connections" USING btree ("push_due_at");