-- Every change to a guild's leveling setup (settings, reward roles, boosts) is announced with
-- NOTIFY on `leveling_setup_changed` (the db package's LEVELING_SETUP_CHANNEL), the guild id
-- as payload, like 0004 does for personality roles. The worker keeps each guild's setup in
-- memory to price a chat message without a Postgres query, and drops it when it hears this.
-- The channel is the trigger's argument, so later features reuse this one function.
CREATE OR REPLACE FUNCTION notify_guild_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], CASE WHEN TG_OP = 'DELETE' THEN OLD.guild_id ELSE NEW.guild_id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER leveling_settings_changed AFTER INSERT OR UPDATE OR DELETE ON leveling_settings
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('leveling_setup_changed');
--> statement-breakpoint
CREATE TRIGGER leveling_roles_changed AFTER INSERT OR UPDATE OR DELETE ON leveling_roles
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('leveling_setup_changed');
--> statement-breakpoint
CREATE TRIGGER leveling_boosts_changed AFTER INSERT OR UPDATE OR DELETE ON leveling_boosts
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('leveling_setup_changed');
