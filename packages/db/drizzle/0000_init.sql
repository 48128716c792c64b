CREATE TABLE "color_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_expanded" boolean DEFAULT true NOT NULL,
	CONSTRAINT "color_groups_guild_name_uq" UNIQUE("guild_id","name")
);
--> statement-breakpoint
CREATE TABLE "color_panels" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"channel_id" text,
	"message_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "color_shades" (
	"id" serial PRIMARY KEY NOT NULL,
	"color_id" integer NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"hex_code" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"role_id" text
);
--> statement-breakpoint
CREATE TABLE "colors" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"guild_id" text NOT NULL,
	"name" text NOT NULL,
	"hex_code" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"role_id" text,
	CONSTRAINT "colors_guild_name_uq" UNIQUE("guild_id","name")
);
--> statement-breakpoint
CREATE TABLE "bot_guilds" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shard_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guild_configs" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reaction_roles" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"color_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"personality_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leveling_boosts" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"multiplier" double precision DEFAULT 2 NOT NULL,
	"user_id" text,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leveling_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"role_name" varchar(100) NOT NULL,
	"level_required" integer DEFAULT 1 NOT NULL,
	"is_image_role" boolean DEFAULT false NOT NULL,
	"role_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leveling_settings" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"xp_multiplier" double precision DEFAULT 1 NOT NULL,
	"announcement_channel" text,
	"daily_overview_channel" text,
	"xp_per_message" integer DEFAULT 10 NOT NULL,
	"message_cooldown_sec" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_daily_xp" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"xp" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "member_daily_xp_pk" PRIMARY KEY("guild_id","user_id","day")
);
--> statement-breakpoint
CREATE TABLE "member_xp" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"xp" bigint DEFAULT 0 NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	CONSTRAINT "member_xp_pk" PRIMARY KEY("guild_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "personality_configs" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"assign_channel_id" text,
	"configured" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personality_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"guild_id" text NOT NULL,
	"label" text NOT NULL,
	"emoji" text,
	"position" integer DEFAULT 0 NOT NULL,
	"role_id" text
);
--> statement-breakpoint
CREATE TABLE "personality_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"question_type" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_multi_select" boolean DEFAULT false NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"message_id" text,
	CONSTRAINT "personality_questions_guild_type_uq" UNIQUE("guild_id","question_type")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text NOT NULL,
	"username" text NOT NULL,
	"discriminator" text DEFAULT '0' NOT NULL,
	"avatar" text,
	"discord_access_token_enc" text NOT NULL,
	"discord_refresh_token_enc" text,
	"discord_token_expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "color_shades" ADD CONSTRAINT "color_shades_color_id_colors_id_fk" FOREIGN KEY ("color_id") REFERENCES "public"."colors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "colors" ADD CONSTRAINT "colors_group_id_color_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."color_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personality_options" ADD CONSTRAINT "personality_options_question_id_personality_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."personality_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "color_groups_guild_idx" ON "color_groups" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "color_shades_guild_idx" ON "color_shades" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "color_shades_color_idx" ON "color_shades" USING btree ("color_id");--> statement-breakpoint
CREATE INDEX "colors_guild_idx" ON "colors" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "colors_group_idx" ON "colors" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "leveling_boosts_guild_idx" ON "leveling_boosts" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "leveling_roles_guild_idx" ON "leveling_roles" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "member_daily_xp_guild_day_idx" ON "member_daily_xp" USING btree ("guild_id","day","xp" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_xp_guild_xp_idx" ON "member_xp" USING btree ("guild_id","xp" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "personality_options_guild_idx" ON "personality_options" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "personality_options_question_idx" ON "personality_options" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "personality_questions_guild_idx" ON "personality_questions" USING btree ("guild_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");