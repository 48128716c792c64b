CREATE TABLE "sticky_roles" (
	"guild_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role_ids" text[] NOT NULL,
	"left_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sticky_roles_guild_id_user_id_pk" PRIMARY KEY("guild_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "sticky_roles_left_at_idx" ON "sticky_roles" USING btree ("left_at");