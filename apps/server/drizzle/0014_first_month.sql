ALTER TABLE "documents" ADD COLUMN "duplicate_decision" text;--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "no_po_needed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "no_po_needed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A possible duplicate a person already approved was approved as "not a duplicate".
UPDATE "documents" SET "duplicate_decision" = 'not_duplicate' WHERE "duplicate_of" IS NOT NULL AND "approved_at" IS NOT NULL;
