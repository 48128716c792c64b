CREATE TABLE "personality_answer_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"question_id" integer NOT NULL,
	"option_id" integer NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"joined_at" timestamp with time zone,
	"left_at" timestamp with time zone,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personality_options" ADD COLUMN "role_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_options" ADD COLUMN "channel_ids" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_answer_events" ADD CONSTRAINT "personality_answer_events_question_id_personality_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."personality_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personality_answer_events" ADD CONSTRAINT "personality_answer_events_option_id_personality_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."personality_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personality_answer_events_question_idx" ON "personality_answer_events" USING btree ("guild_id","question_id","at");--> statement-breakpoint
CREATE INDEX "personality_answer_events_member_idx" ON "personality_answer_events" USING btree ("guild_id","user_id");