CREATE TABLE "member_role_picks" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"scope" text NOT NULL,
	"target_key" text NOT NULL,
	"picked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_role_picks_guild_id_user_id_scope_target_key_pk" PRIMARY KEY("guild_id","user_id","scope","target_key")
);
--> statement-breakpoint
CREATE INDEX "member_role_picks_target_idx" ON "member_role_picks" USING btree ("guild_id","target_key");--> statement-breakpoint
-- Custom SQL: every change to a guild's color setup (colours, shades, the panel) is announced
-- with NOTIFY on `color_setup_changed` (the db package's COLOR_SETUP_CHANNEL), the guild id as
-- payload, with the function of 0006. The worker keeps the ids of every role and message it
-- manages per guild in memory (to tell at once whether a deleted role or message was one of
-- them) and drops a guild's copy when it hears a change of any feature's setup.
CREATE TRIGGER colors_changed AFTER INSERT OR UPDATE OR DELETE ON colors
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('color_setup_changed');
--> statement-breakpoint
CREATE TRIGGER color_shades_changed AFTER INSERT OR UPDATE OR DELETE ON color_shades
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('color_setup_changed');
--> statement-breakpoint
CREATE TRIGGER color_panels_changed AFTER INSERT OR UPDATE OR DELETE ON color_panels
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('color_setup_changed');
