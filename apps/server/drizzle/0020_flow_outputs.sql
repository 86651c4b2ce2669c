ALTER TABLE "flows" ADD COLUMN "outputs_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "outputs_written_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "outputs_written_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "outputs_error" text;--> statement-breakpoint
-- Flows written before this column: their last workbook write is their outputs' last write.
UPDATE "flows" SET "outputs_written_at" = "workbook_written_at";
