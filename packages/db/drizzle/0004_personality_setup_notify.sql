-- Every change to a guild's personality setup (its config row, its questions, their options)
-- is announced with NOTIFY on the channel `personality_setup_changed` (the db package's
-- PERSONALITY_SETUP_CHANNEL), the guild id as payload. The worker keeps a copy of each guild's
-- setup for the 5-minute refresh and drops it when it hears this, so every write path counts,
-- including ones made by hand. Postgres sends it on commit, once per guild and transaction.
CREATE OR REPLACE FUNCTION personality_setup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('personality_setup_changed',
    CASE WHEN TG_OP = 'DELETE' THEN OLD.guild_id ELSE NEW.guild_id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER personality_configs_changed AFTER INSERT OR UPDATE OR DELETE ON personality_configs
  FOR EACH ROW EXECUTE FUNCTION personality_setup_changed();
--> statement-breakpoint
CREATE TRIGGER personality_questions_changed AFTER INSERT OR UPDATE OR DELETE ON personality_questions
  FOR EACH ROW EXECUTE FUNCTION personality_setup_changed();
--> statement-breakpoint
CREATE TRIGGER personality_options_changed AFTER INSERT OR UPDATE OR DELETE ON personality_options
  FOR EACH ROW EXECUTE FUNCTION personality_setup_changed();
