-- The editable palette (issue 22): roles of colours and shades an admin removed, which the next
-- Generate Roles (or a reset) deletes from Discord; and whether the palette changed since the
-- panel was posted, so that Generate Roles edits the posted panel to match.
CREATE TABLE "color_removed_roles" (
	"guild_id" text NOT NULL,
	"role_id" text NOT NULL,
	"name" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "color_removed_roles_guild_id_role_id_pk" PRIMARY KEY("guild_id","role_id")
);
--> statement-breakpoint
ALTER TABLE "color_panels" ADD COLUMN "palette_edited" boolean DEFAULT false NOT NULL;