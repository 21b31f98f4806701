CREATE TABLE "journey_positions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"domain_uuid" uuid NOT NULL,
	"momentum_uuid" uuid NOT NULL,
	"person_uuid" uuid NOT NULL,
	"step" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"reason" text,
	"entered_at" timestamp with time zone NOT NULL,
	"since_at" timestamp with time zone NOT NULL,
	"locked_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "branch" text;--> statement-breakpoint
ALTER TABLE "momentums" ADD COLUMN "steps" jsonb;--> statement-breakpoint
ALTER TABLE "momentums" ADD COLUMN "journey_exit" jsonb;--> statement-breakpoint
ALTER TABLE "journey_positions" ADD CONSTRAINT "journey_positions_momentum_uuid_momentums_uuid_fk" FOREIGN KEY ("momentum_uuid") REFERENCES "public"."momentums"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_positions" ADD CONSTRAINT "journey_positions_person_uuid_persons_uuid_fk" FOREIGN KEY ("person_uuid") REFERENCES "public"."persons"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "journey_positions_active_key" ON "journey_positions" USING btree ("momentum_uuid","person_uuid") WHERE state IN ('waiting', 'running');--> statement-breakpoint
CREATE INDEX "journey_positions_due_idx" ON "journey_positions" USING btree ("due_at") WHERE state = 'waiting';--> statement-breakpoint
CREATE INDEX "journey_positions_running_idx" ON "journey_positions" USING btree ("locked_at") WHERE state = 'running';--> statement-breakpoint
CREATE INDEX "journey_positions_person_idx" ON "journey_positions" USING btree ("person_uuid") WHERE state = 'waiting';--> statement-breakpoint
CREATE INDEX "journey_positions_momentum_idx" ON "journey_positions" USING btree ("momentum_uuid","step");
