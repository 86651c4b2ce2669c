CREATE TABLE "books_connections" (
	"organization_id" uuid NOT NULL,
	"kind" text DEFAULT 'tally' NOT NULL,
	"host" text NOT NULL,
	"port" integer DEFAULT 9000 NOT NULL,
	"company" text NOT NULL,
	"auto_post" boolean DEFAULT false NOT NULL,
	"mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ledgers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_test_ok" boolean,
	"last_test_message" text,
	"last_test_at" timestamp with time zone,
	"secret_enc" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "books_connections_org_kind_uq" UNIQUE("organization_id","kind")
);
--> statement-breakpoint
CREATE TABLE "books_pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"kind" text DEFAULT 'tally' NOT NULL,
	"desired" text DEFAULT 'post' NOT NULL,
	"state" text NOT NULL,
	"outcome" text,
	"remote_id" text,
	"voucher_id" text,
	"sent_hash" text,
	"sent_voucher" jsonb,
	"sent_at" timestamp with time zone,
	"requested_by" text,
	"requested_at" timestamp with time zone,
	"error" text,
	"answer" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "books_pushes_org_doc_kind_uq" UNIQUE("organization_id","document_id","kind")
);
--> statement-breakpoint
ALTER TABLE "books_connections" ADD CONSTRAINT "books_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books_pushes" ADD CONSTRAINT "books_pushes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "books_pushes" ADD CONSTRAINT "books_pushes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "books_pushes_org_updated_idx" ON "books_pushes" USING btree ("organization_id","updated_at");