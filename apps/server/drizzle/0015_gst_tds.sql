CREATE TABLE "compliance_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"turnover_above_10cr" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gstr2b_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"action" text NOT NULL,
	"gstr2b_key" text NOT NULL,
	"differences" jsonb,
	"reason" text NOT NULL,
	"user_id" text,
	"user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gstr2b_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"period" text NOT NULL,
	"gstin" text,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"blob_key" text NOT NULL,
	"content" jsonb NOT NULL,
	"document_count" integer NOT NULL,
	"uploaded_by_user_id" text,
	"uploaded_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gstr2b_files_org_sha_uq" UNIQUE("organization_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "tds_section" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "pan_operative" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "ldc_number" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "ldc_section" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "ldc_rate" numeric(6, 3);--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "ldc_from" date;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "ldc_to" date;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "ldc_limit_paise" bigint;--> statement-breakpoint
ALTER TABLE "compliance_settings" ADD CONSTRAINT "compliance_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gstr2b_decisions" ADD CONSTRAINT "gstr2b_decisions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gstr2b_decisions" ADD CONSTRAINT "gstr2b_decisions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gstr2b_decisions" ADD CONSTRAINT "gstr2b_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gstr2b_files" ADD CONSTRAINT "gstr2b_files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gstr2b_files" ADD CONSTRAINT "gstr2b_files_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gstr2b_decisions_document_idx" ON "gstr2b_decisions" USING btree ("organization_id","document_id","created_at");--> statement-breakpoint
CREATE INDEX "gstr2b_files_org_period_idx" ON "gstr2b_files" USING btree ("organization_id","period");