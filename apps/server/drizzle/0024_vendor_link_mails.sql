CREATE TABLE "vendor_link_mails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"to_address" text NOT NULL,
	"sealed_token" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"requested_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "vendor_link_mails" ADD CONSTRAINT "vendor_link_mails_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_link_mails" ADD CONSTRAINT "vendor_link_mails_link_id_vendor_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."vendor_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vendor_link_mails_link_idx" ON "vendor_link_mails" USING btree ("organization_id","link_id");