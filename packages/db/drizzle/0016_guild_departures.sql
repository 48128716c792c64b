CREATE TABLE "guild_departures" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"left_at" timestamp with time zone DEFAULT now() NOT NULL,
	"purge_after" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "guild_departures_purge_idx" ON "guild_departures" USING btree ("purge_after");