CREATE TABLE "vendor_bank_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"bank_holder_name" text NOT NULL,
	"bank_account" text NOT NULL,
	"bank_ifsc" text NOT NULL,
	"bank_name" text NOT NULL,
	"bank_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_name" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendor_link_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendor_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"vendor_name" text NOT NULL,
	"profile_id" uuid,
	"prefill" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"locked" text[] DEFAULT '{}'::text[] NOT NULL,
	"invoice_flow_id" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"changes_requested" text,
	"created_by" text,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "vendor_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "vendor_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"pan" text NOT NULL,
	"legal_name" text NOT NULL,
	"trade_name" text,
	"constitution" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"bank_holder_name" text NOT NULL,
	"bank_account" text NOT NULL,
	"bank_ifsc" text NOT NULL,
	"bank_name" text NOT NULL,
	"bank_key" text NOT NULL,
	"udyam" jsonb,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tds_section" text,
	"ldc" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendor_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"fields" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"note" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flow_uploads" ADD COLUMN "vendor_link_id" uuid;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "profile_id" uuid;--> statement-breakpoint
ALTER TABLE "vendor_bank_changes" ADD CONSTRAINT "vendor_bank_changes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_bank_changes" ADD CONSTRAINT "vendor_bank_changes_profile_id_vendor_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."vendor_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_link_documents" ADD CONSTRAINT "vendor_link_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_link_documents" ADD CONSTRAINT "vendor_link_documents_link_id_vendor_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."vendor_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_links" ADD CONSTRAINT "vendor_links_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_links" ADD CONSTRAINT "vendor_links_profile_id_vendor_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."vendor_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_links" ADD CONSTRAINT "vendor_links_invoice_flow_id_flows_id_fk" FOREIGN KEY ("invoice_flow_id") REFERENCES "public"."flows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_profiles" ADD CONSTRAINT "vendor_profiles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_link_id_vendor_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."vendor_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_bank_changes_one_pending_uq" ON "vendor_bank_changes" USING btree ("profile_id") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_link_documents_kind_uq" ON "vendor_link_documents" USING btree ("link_id","kind");--> statement-breakpoint
CREATE INDEX "vendor_links_org_idx" ON "vendor_links" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_profiles_org_pan_uq" ON "vendor_profiles" USING btree ("organization_id","pan");--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_profiles_org_bank_uq" ON "vendor_profiles" USING btree ("organization_id","bank_key");--> statement-breakpoint
CREATE INDEX "vendor_submissions_org_idx" ON "vendor_submissions" USING btree ("organization_id","status");--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_profile_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."vendor_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_uploads" ADD CONSTRAINT "flow_uploads_vendor_link_id_fk" FOREIGN KEY ("vendor_link_id") REFERENCES "public"."vendor_links"("id") ON DELETE set null ON UPDATE no action;
