CREATE TABLE "daily_arm_stats" (
	"momentum_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"arm" text NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"assigned" bigint DEFAULT 0 NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"viewed" bigint DEFAULT 0 NOT NULL,
	"clicked" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"converted" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_arm_stats_momentum_uuid_day_arm_pk" PRIMARY KEY("momentum_uuid","day","arm")
);
--> statement-breakpoint
CREATE TABLE "experiment_assignments" (
	"momentum_uuid" uuid NOT NULL,
	"person_uuid" uuid NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"arm" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"converted_at" timestamp with time zone,
	CONSTRAINT "experiment_assignments_momentum_uuid_person_uuid_pk" PRIMARY KEY("momentum_uuid","person_uuid")
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "arm" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "control_group_percent" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "momentums" ADD COLUMN "experiment" jsonb;--> statement-breakpoint
ALTER TABLE "experiment_assignments" ADD CONSTRAINT "experiment_assignments_momentum_uuid_momentums_uuid_fk" FOREIGN KEY ("momentum_uuid") REFERENCES "public"."momentums"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_assignments" ADD CONSTRAINT "experiment_assignments_person_uuid_persons_uuid_fk" FOREIGN KEY ("person_uuid") REFERENCES "public"."persons"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "experiment_assignments_person_idx" ON "experiment_assignments" USING btree ("person_uuid","last_at");