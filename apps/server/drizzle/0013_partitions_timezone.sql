-- Each company's own day: the analytics count in the domain's zone (the company's until now).
ALTER TABLE "domains" ADD COLUMN "timezone" text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
UPDATE "domains" d SET "timezone" = c."time_zone" FROM "companies" c WHERE c."uuid" = d."company_uuid";--> statement-breakpoint
-- Events partitioned by month of ts (UTC months), so retention drops whole months instead of deleting rows, and
-- range queries read only the months they cover. drizzle-kit cannot declare partitioning: this part is hand-written
-- and the snapshot holds the table as the schema declares it (primary key (id, ts)).
ALTER TABLE "events" RENAME TO "events_unpartitioned";--> statement-breakpoint
ALTER TABLE "events_unpartitioned" RENAME CONSTRAINT "events_pkey" TO "events_unpartitioned_pkey";--> statement-breakpoint
ALTER INDEX "events_domain_ts_idx" RENAME TO "events_unpartitioned_domain_ts_idx";--> statement-breakpoint
ALTER INDEX "events_person_idx" RENAME TO "events_unpartitioned_person_idx";--> statement-breakpoint
ALTER SEQUENCE "events_id_seq" RENAME TO "events_unpartitioned_id_seq";--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"domain_uuid" uuid NOT NULL,
	"person_uuid" uuid,
	"kind" text NOT NULL,
	"url" text,
	"category" text,
	"props" jsonb,
	"device" text,
	"ts" timestamp with time zone NOT NULL,
	CONSTRAINT "events_id_ts_pk" PRIMARY KEY("id","ts")
) PARTITION BY RANGE ("ts");--> statement-breakpoint
CREATE INDEX "events_domain_ts_idx" ON "events" USING btree ("domain_uuid","ts");--> statement-breakpoint
CREATE INDEX "events_person_idx" ON "events" USING btree ("person_uuid");--> statement-breakpoint
-- Rows outside every monthly partition (far past or future instants) land here; db/partitions.ts moves them into a
-- month's partition when it creates one.
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;--> statement-breakpoint
-- One partition per month from the oldest event's (at most 121 months back, older rows go to the default; at least
-- last month, for a demonstration clock) to three months ahead; the daily retention job keeps three months ahead.
DO $$
DECLARE
  this_month timestamp := date_trunc('month', now() AT TIME ZONE 'UTC');
  m timestamp;
BEGIN
  SELECT least(greatest(coalesce(date_trunc('month', min(ts) AT TIME ZONE 'UTC'), this_month),
                        this_month - interval '121 months'),
               this_month - interval '1 month')
    INTO m FROM "events_unpartitioned";
  WHILE m <= this_month + interval '3 months' LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "events" FOR VALUES FROM (%L) TO (%L)',
      'events_' || to_char(m, 'YYYY_MM'), to_char(m, 'YYYY-MM-DD') || ' 00:00:00+00',
      to_char(m + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00');
    m := m + interval '1 month';
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "events" ("id", "domain_uuid", "person_uuid", "kind", "url", "category", "props", "device", "ts")
OVERRIDING SYSTEM VALUE
SELECT "id", "domain_uuid", "person_uuid", "kind", "url", "category", "props", "device", "ts" FROM "events_unpartitioned";--> statement-breakpoint
DO $$
DECLARE
  moved bigint;
  kept bigint;
BEGIN
  SELECT count(*) INTO moved FROM "events";
  SELECT count(*) INTO kept FROM "events_unpartitioned";
  IF moved <> kept THEN
    RAISE EXCEPTION 'events: % linhas copiadas de %', moved, kept;
  END IF;
  PERFORM setval('events_id_seq', coalesce((SELECT max("id") FROM "events_unpartitioned"), 0) + 1, false);
END $$;--> statement-breakpoint
DROP TABLE "events_unpartitioned";
