CREATE TABLE "temp_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"granted_by" text,
	"source" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "temp_roles_open_idx" ON "temp_roles" USING btree ("guild_id","user_id","role_id") WHERE "temp_roles"."state" <> 'ended';--> statement-breakpoint
CREATE INDEX "temp_roles_due_idx" ON "temp_roles" USING btree ("expires_at") WHERE "temp_roles"."state" <> 'ended';--> statement-breakpoint
CREATE INDEX "temp_roles_member_idx" ON "temp_roles" USING btree ("guild_id","user_id");