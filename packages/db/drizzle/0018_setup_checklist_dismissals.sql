CREATE TABLE "guild_setup_dismissals" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"dismissed_by" text NOT NULL,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL
);
