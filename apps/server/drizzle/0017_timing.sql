ALTER TABLE "domains" ADD COLUMN "quiet_hours" jsonb;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "extra_holidays" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "momentums" ADD COLUMN "timing" jsonb;--> statement-breakpoint
ALTER TABLE "persons" ADD COLUMN "timezone" text;