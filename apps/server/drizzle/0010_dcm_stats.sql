CREATE TABLE "dcm_stats" (
	"momentum_uuid" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"shown" bigint DEFAULT 0 NOT NULL,
	"clicked" bigint DEFAULT 0 NOT NULL,
	"missing_page" text,
	"missing_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "dcm_stats" ADD CONSTRAINT "dcm_stats_momentum_uuid_momentums_uuid_fk" FOREIGN KEY ("momentum_uuid") REFERENCES "public"."momentums"("uuid") ON DELETE cascade ON UPDATE no action;