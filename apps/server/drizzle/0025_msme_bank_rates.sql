CREATE TABLE "msme_bank_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"effective_from" date NOT NULL,
	"bank_rate_pct" numeric(6, 3) NOT NULL,
	"user_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "msme_bank_rates_org_day_uq" UNIQUE("organization_id","effective_from")
);
--> statement-breakpoint
-- The one undated rate becomes the first of the history, in force from the day it was saved (India time):
-- nothing before that day is priced on a rate nobody recorded for it.
INSERT INTO "msme_bank_rates" ("organization_id", "effective_from", "bank_rate_pct", "user_name")
SELECT "organization_id", ("updated_at" AT TIME ZONE 'Asia/Kolkata')::date, "bank_rate_pct", 'Bank rate setting'
FROM "msme_settings" WHERE "bank_rate_pct" IS NOT NULL;--> statement-breakpoint
DROP TABLE "msme_settings" CASCADE;--> statement-breakpoint
ALTER TABLE "msme_bank_rates" ADD CONSTRAINT "msme_bank_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;