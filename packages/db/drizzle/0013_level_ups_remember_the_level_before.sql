-- A level-up remembers the level before it, so its message names the rewards of every level
-- crossed at once (one flush can cross several), under the reward mode.
ALTER TABLE "pending_level_ups" ADD COLUMN "previous_level" integer;