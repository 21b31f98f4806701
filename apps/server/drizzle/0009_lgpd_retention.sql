CREATE TABLE "person_erasures" (
	"domain_uuid" uuid NOT NULL,
	"visitor_hash" text NOT NULL,
	"erased_at" timestamp with time zone NOT NULL,
	CONSTRAINT "person_erasures_domain_uuid_visitor_hash_pk" PRIMARY KEY("domain_uuid","visitor_hash")
);
--> statement-breakpoint
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_person_uuid_persons_uuid_fk";
--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "person_uuid" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "retention_months" smallint DEFAULT 13 NOT NULL;--> statement-breakpoint
ALTER TABLE "person_erasures" ADD CONSTRAINT "person_erasures_domain_uuid_domains_uuid_fk" FOREIGN KEY ("domain_uuid") REFERENCES "public"."domains"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_person_uuid_persons_uuid_fk" FOREIGN KEY ("person_uuid") REFERENCES "public"."persons"("uuid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
