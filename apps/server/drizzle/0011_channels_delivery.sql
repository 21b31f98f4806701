ALTER TABLE "channels" ADD COLUMN "refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "refused_reason" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "frequency_cap_day" integer;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "frequency_cap_week" integer;--> statement-breakpoint
CREATE INDEX "deliveries_person_sent_idx" ON "deliveries" USING btree ("person_uuid","sent_at") WHERE sent_at IS NOT NULL;