-- personality_configs.version goes up with every change to a guild's personality setup: the
-- config row itself, its questions or their options. The worker keeps a copy of each guild's
-- setup and re-reads it only when the version moved, so every write path counts, including
-- ones made by hand.
CREATE OR REPLACE FUNCTION personality_setup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE personality_configs SET version = version + 1
    WHERE guild_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.guild_id ELSE NEW.guild_id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER personality_questions_changed AFTER INSERT OR UPDATE OR DELETE ON personality_questions
  FOR EACH ROW EXECUTE FUNCTION personality_setup_changed();
--> statement-breakpoint
CREATE TRIGGER personality_options_changed AFTER INSERT OR UPDATE OR DELETE ON personality_options
  FOR EACH ROW EXECUTE FUNCTION personality_setup_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION personality_config_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An update that already moved the version (the trigger above) is not counted twice.
  IF NEW.version = OLD.version THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER personality_configs_changed BEFORE UPDATE ON personality_configs
  FOR EACH ROW EXECUTE FUNCTION personality_config_version();
