CREATE TABLE "sign_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"username" text NOT NULL,
	"discriminator" text DEFAULT '0' NOT NULL,
	"avatar" text,
	"discord_access_token_enc" text NOT NULL,
	"discord_refresh_token_enc" text,
	"discord_token_expires_at" timestamp with time zone NOT NULL,
	"refresh_token_hash" text,
	"previous_refresh_token_hash" text,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sign_ins_refresh_token_hash_unique" UNIQUE("refresh_token_hash"),
	CONSTRAINT "sign_ins_previous_refresh_token_hash_unique" UNIQUE("previous_refresh_token_hash")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "sign_in_id" uuid;--> statement-breakpoint
-- Every session signed in before this migration becomes a sign-in of its own (same id, its
-- Discord tokens, no refresh cookie), so nobody is signed out by the upgrade.
INSERT INTO "sign_ins" ("id", "user_id", "username", "discriminator", "avatar", "discord_access_token_enc", "discord_refresh_token_enc", "discord_token_expires_at", "created_at", "expires_at", "revoked_at")
	SELECT "id", "user_id", "username", "discriminator", "avatar", "discord_access_token_enc", "discord_refresh_token_enc", "discord_token_expires_at", "created_at", "expires_at", "revoked_at" FROM "sessions";--> statement-breakpoint
UPDATE "sessions" SET "sign_in_id" = "id";--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "sign_in_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "sign_ins_user_id_idx" ON "sign_ins" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_sign_in_id_sign_ins_id_fk" FOREIGN KEY ("sign_in_id") REFERENCES "public"."sign_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_sign_in_id_idx" ON "sessions" USING btree ("sign_in_id");--> statement-breakpoint
ALTER TABLE "sessions" DROP COLUMN "discord_access_token_enc";--> statement-breakpoint
ALTER TABLE "sessions" DROP COLUMN "discord_refresh_token_enc";--> statement-breakpoint
ALTER TABLE "sessions" DROP COLUMN "discord_token_expires_at";
