CREATE TABLE "momentums" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"company_uuid" uuid NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"user_uuid" uuid NOT NULL,
	"type" text NOT NULL,
	"momentum_title" text NOT NULL,
	"momentum_description" text,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"channel_uuid" uuid,
	"momentums" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"worktime" jsonb,
	"activated_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "momentums" ADD CONSTRAINT "momentums_company_uuid_companies_uuid_fk" FOREIGN KEY ("company_uuid") REFERENCES "public"."companies"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "momentums" ADD CONSTRAINT "momentums_domain_uuid_domains_uuid_fk" FOREIGN KEY ("domain_uuid") REFERENCES "public"."domains"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "momentums_domain_type_idx" ON "momentums" USING btree ("domain_uuid","type","status");