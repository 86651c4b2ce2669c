CREATE TABLE "document_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "document_lines_doc_line_uq" UNIQUE("document_id","line_no")
);
--> statement-breakpoint
CREATE TABLE "flow_uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"stored_path" text NOT NULL,
	"uploaded_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_uploads_flow_name_hash_uq" UNIQUE("flow_id","file_name","sha256")
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "source_kind" text DEFAULT 'upload' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "source_path" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "size" bigint;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "modified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "error_message" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "failed_checks" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "review_flag" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "sheet_row" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "flows" ADD COLUMN "workbook_written_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "started_by_user_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "source" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "skipped" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "error_message" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "current_file" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_lines" ADD CONSTRAINT "document_lines_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_uploads" ADD CONSTRAINT "flow_uploads_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_uploads" ADD CONSTRAINT "flow_uploads_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_uploads" ADD CONSTRAINT "flow_uploads_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_lines_flow_idx" ON "document_lines" USING btree ("flow_id");--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runs" ADD CONSTRAINT "runs_started_by_user_id_users_id_fk" FOREIGN KEY ("started_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_run_status_idx" ON "documents" USING btree ("run_id","status");--> statement-breakpoint
CREATE INDEX "documents_flow_status_idx" ON "documents" USING btree ("flow_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_one_active_per_flow_uq" ON "runs" USING btree ("flow_id") WHERE status in ('queued', 'running');