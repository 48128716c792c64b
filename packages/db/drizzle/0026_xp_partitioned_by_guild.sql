-- Members' XP and daily totals become hash-partitioned by guild_id (PostgreSQL native
-- partitioning): 16 partitions each (the schema's XP_PARTITIONS), in the schema xp_partitions
-- so `public` lists the parents only. Every query of the product names one guild, so it reads
-- and locks one partition, and each partition's indexes are a sixteenth of the table's.
--
-- A table cannot be turned into a partitioned one in place: the old table is renamed, the
-- partitioned one created under the old name with the same columns, defaults, primary key and
-- index names (neither has a foreign key or trigger), every row moved, the old table dropped.
-- The migrator applies a migration in one transaction, so a crash leaves the old layout or the
-- new one, never half of each. The rename locks the table (ACCESS EXCLUSIVE) until commit:
-- XP flushes wait (their XP stays buffered in Redis) for as long as the copy takes.
--
-- xp_flush_batches gains the batch's guild id, first in its key, so the record of a batch sits
-- with its guild's rows once the tables are spread over servers by guild. A worker batch id is
-- `<guild id>.<uuid>` and an erase marker `erased:<batch id>:<user id>`: the rows already there
-- keep their meaning with the guild id read from them.
ALTER TABLE "xp_flush_batches" ADD COLUMN "guild_id" text;--> statement-breakpoint
UPDATE "xp_flush_batches" SET "guild_id" = split_part(
  CASE WHEN "batch_id" LIKE 'erased:%' THEN substr("batch_id", length('erased:') + 1) ELSE "batch_id" END,
  '.', 1);--> statement-breakpoint
ALTER TABLE "xp_flush_batches" ALTER COLUMN "guild_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "xp_flush_batches" DROP CONSTRAINT "xp_flush_batches_pkey";--> statement-breakpoint
ALTER TABLE "xp_flush_batches" ADD CONSTRAINT "xp_flush_batches_pk" PRIMARY KEY("guild_id","batch_id");--> statement-breakpoint
CREATE SCHEMA IF NOT EXISTS "xp_partitions";--> statement-breakpoint
ALTER TABLE "member_xp" RENAME TO "member_xp_unpartitioned";--> statement-breakpoint
ALTER TABLE "member_xp_unpartitioned" RENAME CONSTRAINT "member_xp_pk" TO "member_xp_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "member_xp_guild_xp_idx" RENAME TO "member_xp_unpartitioned_guild_xp_idx";--> statement-breakpoint
CREATE TABLE "member_xp" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"xp" bigint DEFAULT 0 NOT NULL,
	"level" integer DEFAULT 0 NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	"username" text,
	"avatar" text,
	"rewards_due_at" timestamp with time zone,
	"card_accent" text,
	"decayed_at" timestamp with time zone,
	"kept_level" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "member_xp_pk" PRIMARY KEY("guild_id","user_id")
) PARTITION BY HASH ("guild_id");--> statement-breakpoint
CREATE INDEX "member_xp_guild_xp_idx" ON "member_xp" USING btree ("guild_id","xp" DESC NULLS LAST);--> statement-breakpoint
DO $$
BEGIN
  FOR i IN 0..15 LOOP
    EXECUTE format('CREATE TABLE xp_partitions.%I PARTITION OF public.member_xp FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
      'member_xp_p' || lpad(i::text, 2, '0'), i);
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "member_xp" ("guild_id", "user_id", "xp", "level", "message_count", "last_message_at", "left_at",
	"username", "avatar", "rewards_due_at", "card_accent", "decayed_at", "kept_level")
SELECT "guild_id", "user_id", "xp", "level", "message_count", "last_message_at", "left_at",
	"username", "avatar", "rewards_due_at", "card_accent", "decayed_at", "kept_level"
FROM "member_xp_unpartitioned";--> statement-breakpoint
DROP TABLE "member_xp_unpartitioned";--> statement-breakpoint
ALTER TABLE "member_daily_xp" RENAME TO "member_daily_xp_unpartitioned";--> statement-breakpoint
ALTER TABLE "member_daily_xp_unpartitioned" RENAME CONSTRAINT "member_daily_xp_pk" TO "member_daily_xp_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "member_daily_xp_guild_day_idx" RENAME TO "member_daily_xp_unpartitioned_guild_day_idx";--> statement-breakpoint
CREATE TABLE "member_daily_xp" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"xp" bigint DEFAULT 0 NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"level_ups" integer DEFAULT 0 NOT NULL,
	"voice_minutes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "member_daily_xp_pk" PRIMARY KEY("guild_id","user_id","day")
) PARTITION BY HASH ("guild_id");--> statement-breakpoint
CREATE INDEX "member_daily_xp_guild_day_idx" ON "member_daily_xp" USING btree ("guild_id","day","xp" DESC NULLS LAST);--> statement-breakpoint
DO $$
BEGIN
  FOR i IN 0..15 LOOP
    EXECUTE format('CREATE TABLE xp_partitions.%I PARTITION OF public.member_daily_xp FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
      'member_daily_xp_p' || lpad(i::text, 2, '0'), i);
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "member_daily_xp" ("guild_id", "user_id", "day", "xp", "messages", "level_ups", "voice_minutes")
SELECT "guild_id", "user_id", "day", "xp", "messages", "level_ups", "voice_minutes"
FROM "member_daily_xp_unpartitioned";--> statement-breakpoint
DROP TABLE "member_daily_xp_unpartitioned";
