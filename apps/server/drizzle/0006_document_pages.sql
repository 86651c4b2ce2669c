ALTER TABLE "documents" ADD COLUMN "pages_read" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "page_count" integer;