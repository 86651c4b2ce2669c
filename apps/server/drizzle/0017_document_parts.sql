ALTER TABLE "documents" DROP CONSTRAINT "documents_flow_source_hash_uq";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "part_no" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "page_from" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "page_to" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_flow_source_hash_part_uq" UNIQUE("flow_id","source_id","content_hash","part_no");