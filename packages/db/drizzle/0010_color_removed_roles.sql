-- Roles of colours and shades an admin removed from the palette (issue 22): the next Generate
-- Roles or reset deletes each Discord role, then its row.
CREATE TABLE "color_removed_roles" (
	"guild_id" text NOT NULL,
	"role_id" text NOT NULL,
	"name" text NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "color_removed_roles_guild_id_role_id_pk" PRIMARY KEY("guild_id","role_id")
);
