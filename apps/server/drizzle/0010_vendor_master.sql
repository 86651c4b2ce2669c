ALTER TABLE "vendors" ADD COLUMN "pan" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "state_code" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "payment_terms_days" integer;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "msme_udyam" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- One vendor per GSTIN: earlier copies (if any) fold into the first.
DELETE FROM "vendors" a USING "vendors" b WHERE a."organization_id" = b."organization_id" AND a."gstin" = b."gstin" AND a."id" > b."id";--> statement-breakpoint
CREATE UNIQUE INDEX "vendors_org_gstin_uq" ON "vendors" USING btree ("organization_id","gstin");