CREATE TABLE "welcome_settings" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"channel_id" text,
	"message" text DEFAULT 'Welcome to **{server}**, {user}! You are member #{member_count}.' NOT NULL,
	"send_when" text DEFAULT 'join' NOT NULL,
	"dm_enabled" boolean DEFAULT false NOT NULL,
	"dm_message" text DEFAULT 'Welcome to **{server}**, {username}! Glad you are here.' NOT NULL,
	"card" boolean DEFAULT false NOT NULL,
	"goodbye_enabled" boolean DEFAULT false NOT NULL,
	"goodbye_channel_id" text,
	"goodbye_message" text DEFAULT '**{username}** has left {server}. We are {member_count} now.' NOT NULL,
	"auto_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"bot_auto_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"auto_role_delay_s" integer DEFAULT 0 NOT NULL,
	"sticky_roles" boolean DEFAULT false NOT NULL,
	"sticky_exclude_role_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
