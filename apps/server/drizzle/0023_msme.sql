CREATE TABLE "msme_objections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"raised_on" date NOT NULL,
	"resolved_on" date,
	"note" text NOT NULL,
	"user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "msme_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"vendor_id" uuid NOT NULL,
	"document_id" uuid,
	"paid_on" date NOT NULL,
	"amount_paise" bigint NOT NULL,
	"reference" text NOT NULL,
	"delay_reason" text,
	"source" text NOT NULL,
	"user_id" text,
	"user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "msme_payments_dedupe_uq" UNIQUE("organization_id","vendor_id","paid_on","amount_paise","reference")
);
--> statement-breakpoint
CREATE TABLE "msme_registrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"vendor_id" uuid NOT NULL,
	"financial_year" integer NOT NULL,
	"udyam" text,
	"category" text NOT NULL,
	"activity" text NOT NULL,
	"written_agreement" boolean DEFAULT false NOT NULL,
	"agreed_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "msme_registrations_vendor_year_uq" UNIQUE("organization_id","vendor_id","financial_year")
);
--> statement-breakpoint
CREATE TABLE "msme_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"bank_rate_pct" numeric(6, 3),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "msme_objections" ADD CONSTRAINT "msme_objections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_objections" ADD CONSTRAINT "msme_objections_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_payments" ADD CONSTRAINT "msme_payments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_payments" ADD CONSTRAINT "msme_payments_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_payments" ADD CONSTRAINT "msme_payments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_payments" ADD CONSTRAINT "msme_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_registrations" ADD CONSTRAINT "msme_registrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_registrations" ADD CONSTRAINT "msme_registrations_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "msme_settings" ADD CONSTRAINT "msme_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "msme_objections_document_idx" ON "msme_objections" USING btree ("organization_id","document_id");--> statement-breakpoint
CREATE INDEX "msme_payments_org_idx" ON "msme_payments" USING btree ("organization_id","paid_on");