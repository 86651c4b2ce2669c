CREATE TABLE "reconcile_settings" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"qty_tolerance_pct" numeric(6, 2) NOT NULL,
	"price_tolerance_pct" numeric(6, 2) NOT NULL,
	"amount_tolerance_paise" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "qty_tolerance_pct" numeric(6, 2);--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "price_tolerance_pct" numeric(6, 2);--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "amount_tolerance_paise" bigint;--> statement-breakpoint
ALTER TABLE "reconcile_settings" ADD CONSTRAINT "reconcile_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;