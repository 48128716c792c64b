-- Role menus of the admin's own (issue 22): a menu the admin asked to post (the
-- role-menus.post job clears it once done), and a deleted menu whose posted messages the worker
-- has yet to delete (the row goes then).
ALTER TABLE "role_menus" ADD COLUMN "post_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "role_menus" ADD COLUMN "deleted_at" timestamp with time zone;