CREATE TABLE "welcome_greetings" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"username" text NOT NULL,
	"answers" text[] NOT NULL,
	"member_count" integer NOT NULL,
	"raid" boolean DEFAULT false NOT NULL,
	"awaiting" boolean DEFAULT false NOT NULL,
	"batch" text,
	"heard_at" timestamp with time zone DEFAULT now() NOT NULL,
	"greeted_at" timestamp with time zone,
	"message_id" text,
	"skipped" text,
	CONSTRAINT "welcome_greetings_guild_id_user_id_kind_joined_at_pk" PRIMARY KEY("guild_id","user_id","kind","joined_at")
);
--> statement-breakpoint
CREATE INDEX "welcome_greetings_pending_idx" ON "welcome_greetings" USING btree ("guild_id","raid","heard_at");