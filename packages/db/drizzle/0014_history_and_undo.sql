-- History and undo: every change made through the API, per guild, with what an undo needs
-- (the state before a settings change, or what a destructive action removed).
CREATE TABLE "guild_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_at" timestamp with time zone,
	"actor_id" text NOT NULL,
	"actor_name" text DEFAULT '' NOT NULL,
	"actor_avatar" text,
	"area" text NOT NULL,
	"action" text NOT NULL,
	"subject" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"undo_kind" text,
	"before" jsonb,
	"after" jsonb,
	"snapshot" jsonb,
	"snapshot_ready_at" timestamp with time zone,
	"job_id" text,
	"undo_of" integer,
	"undone_by" integer,
	"restore_requested_at" timestamp with time zone,
	"restored_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "guild_history_guild_idx" ON "guild_history" USING btree ("guild_id","id");--> statement-breakpoint
CREATE INDEX "guild_history_subject_idx" ON "guild_history" USING btree ("guild_id","subject");--> statement-breakpoint
CREATE INDEX "guild_history_at_idx" ON "guild_history" USING btree ("at");--> statement-breakpoint
CREATE INDEX "guild_history_restore_idx" ON "guild_history" USING btree ("guild_id") WHERE "guild_history"."restore_requested_at" IS NOT NULL AND "guild_history"."restored_at" IS NULL;