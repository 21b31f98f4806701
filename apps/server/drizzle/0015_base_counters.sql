CREATE TABLE "base_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "base_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"domain_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"onsite" bigint NOT NULL,
	"push" bigint NOT NULL,
	"email" bigint NOT NULL,
	"sms" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "base_daily" (
	"domain_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"onsite" bigint DEFAULT 0 NOT NULL,
	"push" bigint DEFAULT 0 NOT NULL,
	"email" bigint DEFAULT 0 NOT NULL,
	"sms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "base_daily_domain_uuid_day_pk" PRIMARY KEY("domain_uuid","day")
);
--> statement-breakpoint
-- What a set of persons adds to (sign 1) or takes from (sign -1) the counters of the day each was first seen, in
-- its domain's time zone; appended to base_changes and folded into base_daily when the transaction commits.
CREATE FUNCTION persons_base_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO base_changes (domain_uuid, day, onsite, push, email, sms)
  SELECT a.domain_uuid, (a.first_seen AT TIME ZONE d.timezone)::date, count(*),
    count(*) FILTER (WHERE a.push_status = 'subscribed'), count(a.email), count(a.phone)
  FROM added a JOIN domains d ON d.uuid = a.domain_uuid
  GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION persons_base_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO base_changes (domain_uuid, day, onsite, push, email, sms)
  SELECT r.domain_uuid, (r.first_seen AT TIME ZONE d.timezone)::date, -count(*),
    -count(*) FILTER (WHERE r.push_status = 'subscribed'), -count(r.email), -count(r.phone)
  FROM removed r JOIN domains d ON d.uuid = r.domain_uuid
  GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION persons_base_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO base_changes (domain_uuid, day, onsite, push, email, sms)
  SELECT OLD.domain_uuid, (OLD.first_seen AT TIME ZONE d.timezone)::date, -1,
    -(CASE WHEN OLD.push_status = 'subscribed' THEN 1 ELSE 0 END),
    -(CASE WHEN OLD.email IS NOT NULL THEN 1 ELSE 0 END), -(CASE WHEN OLD.phone IS NOT NULL THEN 1 ELSE 0 END)
  FROM domains d WHERE d.uuid = OLD.domain_uuid
  UNION ALL
  SELECT NEW.domain_uuid, (NEW.first_seen AT TIME ZONE d.timezone)::date, 1,
    CASE WHEN NEW.push_status = 'subscribed' THEN 1 ELSE 0 END,
    CASE WHEN NEW.email IS NOT NULL THEN 1 ELSE 0 END, CASE WHEN NEW.phone IS NOT NULL THEN 1 ELSE 0 END
  FROM domains d WHERE d.uuid = NEW.domain_uuid;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER persons_base_insert AFTER INSERT ON persons
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION persons_base_added();--> statement-breakpoint
CREATE TRIGGER persons_base_delete AFTER DELETE ON persons
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION persons_base_removed();--> statement-breakpoint
-- Most updates of persons (last_seen, attributes) change no channel: only those that do are counted, row by row.
CREATE TRIGGER persons_base_update AFTER UPDATE ON persons FOR EACH ROW
  WHEN (OLD.push_status IS DISTINCT FROM NEW.push_status OR (OLD.email IS NULL) <> (NEW.email IS NULL)
    OR (OLD.phone IS NULL) <> (NEW.phone IS NULL) OR OLD.first_seen <> NEW.first_seen
    OR OLD.domain_uuid <> NEW.domain_uuid)
  EXECUTE FUNCTION persons_base_changed();--> statement-breakpoint
-- At commit: each change row into its counter row (locked only from then to the end of the commit), then gone.
CREATE FUNCTION base_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO base_daily AS b (domain_uuid, day, onsite, push, email, sms)
  VALUES (NEW.domain_uuid, NEW.day, NEW.onsite, NEW.push, NEW.email, NEW.sms)
  ON CONFLICT (domain_uuid, day) DO UPDATE SET onsite = b.onsite + excluded.onsite, push = b.push + excluded.push,
    email = b.email + excluded.email, sms = b.sms + excluded.sms;
  DELETE FROM base_changes WHERE id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER base_changes_fold AFTER INSERT ON base_changes DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION base_fold();--> statement-breakpoint
-- One domain's counters counted again from its persons (its time zone changed: the days move). Folds of other
-- transactions wait for the table lock and then add what this count did not see.
CREATE FUNCTION base_rebuild(of_domain uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE base_daily IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM base_daily WHERE domain_uuid = of_domain;
  INSERT INTO base_daily (domain_uuid, day, onsite, push, email, sms)
  SELECT p.domain_uuid, (p.first_seen AT TIME ZONE d.timezone)::date, count(*),
    count(*) FILTER (WHERE p.push_status = 'subscribed'), count(p.email), count(p.phone)
  FROM persons p JOIN domains d ON d.uuid = p.domain_uuid
  WHERE p.domain_uuid = of_domain
  GROUP BY 1, 2;
END $$;--> statement-breakpoint
INSERT INTO base_daily (domain_uuid, day, onsite, push, email, sms)
SELECT p.domain_uuid, (p.first_seen AT TIME ZONE d.timezone)::date, count(*),
  count(*) FILTER (WHERE p.push_status = 'subscribed'), count(p.email), count(p.phone)
FROM persons p JOIN domains d ON d.uuid = p.domain_uuid
GROUP BY 1, 2;
