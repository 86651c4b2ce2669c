CREATE TABLE "issuer_memories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"issuer_key" text NOT NULL,
	"memory" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issuer_memories_org_type_key_uq" UNIQUE("organization_id","document_type","issuer_key")
);
--> statement-breakpoint
ALTER TABLE "issuer_memories" ADD CONSTRAINT "issuer_memories_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;