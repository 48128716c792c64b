CREATE TABLE "deployment" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Custom: the one row, made once per database.
INSERT INTO "deployment" ("id") VALUES (gen_random_uuid()::text);
