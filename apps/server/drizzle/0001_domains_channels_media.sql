CREATE TABLE "channels" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"channel_type" text NOT NULL,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secrets" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media" (
	"id" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"name" text NOT NULL,
	"original_name" text,
	"content_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "registration" jsonb;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_domain_uuid_domains_uuid_fk" FOREIGN KEY ("domain_uuid") REFERENCES "public"."domains"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_domain_uuid_domains_uuid_fk" FOREIGN KEY ("domain_uuid") REFERENCES "public"."domains"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_domain_type_key" ON "channels" USING btree ("domain_uuid","channel_type");--> statement-breakpoint
CREATE INDEX "media_domain_idx" ON "media" USING btree ("domain_uuid");