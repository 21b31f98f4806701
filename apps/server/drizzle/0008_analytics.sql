CREATE TABLE "conversions" (
	"domain_uuid" uuid NOT NULL,
	"order_key" text NOT NULL,
	"person_uuid" uuid,
	"event_id" bigint,
	"value_cents" bigint DEFAULT 0 NOT NULL,
	"delivery_id" uuid,
	"momentum_uuid" uuid,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "conversions_domain_uuid_order_key_pk" PRIMARY KEY("domain_uuid","order_key")
);
--> statement-breakpoint
CREATE TABLE "daily_event_visitors" (
	"domain_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"category" text NOT NULL,
	"person_uuid" uuid NOT NULL,
	CONSTRAINT "daily_event_visitors_domain_uuid_day_category_person_uuid_pk" PRIMARY KEY("domain_uuid","day","category","person_uuid")
);
--> statement-breakpoint
CREATE TABLE "daily_momentum_stats" (
	"momentum_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"viewed" bigint DEFAULT 0 NOT NULL,
	"clicked" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"cart_accesses" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_momentum_stats_momentum_uuid_day_pk" PRIMARY KEY("momentum_uuid","day")
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "cart_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "cart_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "conversions_person_idx" ON "conversions" USING btree ("person_uuid");--> statement-breakpoint
CREATE INDEX "daily_momentum_stats_domain_day_idx" ON "daily_momentum_stats" USING btree ("domain_uuid","day");--> statement-breakpoint
CREATE INDEX "deliveries_person_idx" ON "deliveries" USING btree ("person_uuid");--> statement-breakpoint
CREATE INDEX "persons_domain_first_seen_idx" ON "persons" USING btree ("domain_uuid","first_seen");--> statement-breakpoint
CREATE INDEX "persons_domain_push_idx" ON "persons" USING btree ("domain_uuid") WHERE push_status = 'subscribed';--> statement-breakpoint
CREATE INDEX "persons_domain_email_idx" ON "persons" USING btree ("domain_uuid") WHERE email IS NOT NULL;--> statement-breakpoint
CREATE INDEX "persons_domain_phone_idx" ON "persons" USING btree ("domain_uuid") WHERE phone IS NOT NULL;