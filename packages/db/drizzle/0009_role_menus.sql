-- Role menus: one row per menu of roles members pick from themselves. The Reaction Roles
-- editor's two lists move here from reaction_roles (one row per list, `list_key` naming it, the
-- color list `unique` and the personality list `normal`, both of style `reactions`), keeping
-- their rows, author and time; then reaction_roles goes.
CREATE TABLE "role_menus" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"guild_id" text NOT NULL,
	"list_key" text,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"color" integer,
	"style" text DEFAULT 'reactions' NOT NULL,
	"mode" text DEFAULT 'normal' NOT NULL,
	"max_roles" integer,
	"required_role_id" text,
	"channel_id" text,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"message_channel_id" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "role_menus_guild_idx" ON "role_menus" USING btree ("guild_id");--> statement-breakpoint
CREATE UNIQUE INDEX "role_menus_guild_list_idx" ON "role_menus" USING btree ("guild_id","list_key");--> statement-breakpoint
INSERT INTO "role_menus" ("guild_id", "list_key", "title", "style", "mode", "options", "updated_by", "updated_at")
  SELECT "guild_id", 'color_roles', 'Color Roles', 'reactions', 'unique', "color_roles", "updated_by", "updated_at" FROM "reaction_roles"
  UNION ALL
  SELECT "guild_id", 'personality_roles', 'Personality Roles', 'reactions', 'normal', "personality_roles", "updated_by", "updated_at" FROM "reaction_roles";
--> statement-breakpoint
DROP TABLE "reaction_roles" CASCADE;
--> statement-breakpoint
-- Announced like the other setups (0006's notify_guild_changed): the worker keeps each guild's
-- menus in memory to answer a reaction without a Postgres query, and drops them on this.
CREATE TRIGGER role_menus_changed AFTER INSERT OR UPDATE OR DELETE ON role_menus
  FOR EACH ROW EXECUTE FUNCTION notify_guild_changed('role_menus_changed');
