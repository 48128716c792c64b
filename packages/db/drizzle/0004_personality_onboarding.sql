ALTER TABLE "personality_configs" ADD COLUMN "onboarding_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "personality_questions" ADD COLUMN "onboarding_prompt_id" text;