CREATE TABLE "daily_stats" (
	"domain_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_stats_domain_uuid_day_dimension_value_pk" PRIMARY KEY("domain_uuid","day","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "daily_visitors" (
	"domain_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"person_uuid" uuid NOT NULL,
	CONSTRAINT "daily_visitors_domain_uuid_day_person_uuid_pk" PRIMARY KEY("domain_uuid","day","person_uuid")
);
--> statement-breakpoint
CREATE TABLE "event_catalog" (
	"category_uuid" uuid NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"seen_count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "event_catalog_category_uuid_key_value_pk" PRIMARY KEY("category_uuid","key","value")
);
--> statement-breakpoint
CREATE TABLE "event_categories" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"name" text NOT NULL,
	"seen_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"domain_uuid" uuid NOT NULL,
	"person_uuid" uuid,
	"kind" text NOT NULL,
	"url" text,
	"category" text,
	"props" jsonb,
	"device" text,
	"ts" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "persons" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"visitor_id" text NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"email" text,
	"phone" text,
	"name" text,
	"push_subscription" jsonb,
	"push_status" text,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_catalog" ADD CONSTRAINT "event_catalog_category_uuid_event_categories_uuid_fk" FOREIGN KEY ("category_uuid") REFERENCES "public"."event_categories"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_categories" ADD CONSTRAINT "event_categories_domain_uuid_domains_uuid_fk" FOREIGN KEY ("domain_uuid") REFERENCES "public"."domains"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persons" ADD CONSTRAINT "persons_domain_uuid_domains_uuid_fk" FOREIGN KEY ("domain_uuid") REFERENCES "public"."domains"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_categories_domain_name_key" ON "event_categories" USING btree ("domain_uuid","name");--> statement-breakpoint
CREATE INDEX "events_domain_ts_idx" ON "events" USING btree ("domain_uuid","ts");--> statement-breakpoint
CREATE INDEX "events_person_idx" ON "events" USING btree ("person_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "persons_domain_visitor_key" ON "persons" USING btree ("domain_uuid","visitor_id");--> statement-breakpoint
CREATE INDEX "persons_domain_seen_idx" ON "persons" USING btree ("domain_uuid","last_seen");