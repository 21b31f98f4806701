CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"momentum_uuid" uuid NOT NULL,
	"person_uuid" uuid NOT NULL,
	"channel_type" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"trigger_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"locked_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "onsite_queue" (
	"delivery_id" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"person_uuid" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_momentum_uuid_momentums_uuid_fk" FOREIGN KEY ("momentum_uuid") REFERENCES "public"."momentums"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_person_uuid_persons_uuid_fk" FOREIGN KEY ("person_uuid") REFERENCES "public"."persons"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "onsite_queue" ADD CONSTRAINT "onsite_queue_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_dedupe_key" ON "deliveries" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("due_at") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "deliveries_sending_idx" ON "deliveries" USING btree ("locked_at") WHERE status = 'sending';--> statement-breakpoint
CREATE INDEX "deliveries_momentum_person_idx" ON "deliveries" USING btree ("momentum_uuid","person_uuid");--> statement-breakpoint
CREATE INDEX "onsite_queue_person_idx" ON "onsite_queue" USING btree ("person_uuid");