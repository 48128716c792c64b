CREATE TABLE "deployment" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_level_ups" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"level" integer NOT NULL,
	"claimed_until" timestamp with time zone DEFAULT now() NOT NULL,
	"announcing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pending_level_ups_pk" PRIMARY KEY("guild_id","user_id","level")
);
--> statement-breakpoint
CREATE INDEX "pending_level_ups_claimed_idx" ON "pending_level_ups" USING btree ("claimed_until");--> statement-breakpoint
-- Custom: the one row, made once per database (the identity a Redis prefix is bound to).
INSERT INTO "deployment" ("id") VALUES (gen_random_uuid()::text);
