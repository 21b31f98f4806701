-- Distinct visitors over any range (issue #30): per domain, day and dimension, the exact set of the visitors' 64-bit
-- hashes while it holds at most 256, a HyperLogLog of 2^14 one-byte registers past that
-- (modules/analytics/visitor-sketch.ts computes the same hash and registers in JavaScript).
CREATE TABLE "daily_sketches" (
	"domain_uuid" uuid NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"hashes" bigint[],
	"registers" "bytea",
	CONSTRAINT "daily_sketches_domain_uuid_dimension_day_value_pk" PRIMARY KEY("domain_uuid","dimension","day","value")
);--> statement-breakpoint
-- A visitor's hash: the first 16 hex digits of md5(person uuid), as a signed bigint.
CREATE FUNCTION visitor_hash(p uuid) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ('x' || substr(md5(p::text), 1, 16))::bit(64)::bigint $$;--> statement-breakpoint
-- Its register (the top 14 bits) and the rank it offers (leading zeros of the other 50 bits, plus one).
CREATE FUNCTION sketch_index(h bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ((h >> 50) & 16383)::int $$;--> statement-breakpoint
CREATE FUNCTION sketch_rank(h bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce(nullif(position('1' in (h::bit(50))::text), 0), 51) $$;--> statement-breakpoint
-- Two sets of hashes as one, sorted, without repeats.
CREATE FUNCTION sketch_union(a bigint[], b bigint[]) RETURNS bigint[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(coalesce(a, '{}') || coalesce(b, '{}')) AS x $$;--> statement-breakpoint
-- Registers (null: all zero) raised by the ranks of `add`.
CREATE FUNCTION sketch_registers(registers bytea, add bigint[]) RETURNS bytea LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  h bigint;
  i int;
  r int;
BEGIN
  IF registers IS NULL THEN
    registers := decode(repeat('00', 16384), 'hex');
  END IF;
  FOREACH h IN ARRAY coalesce(add, '{}') LOOP
    i := sketch_index(h);
    r := sketch_rank(h);
    IF get_byte(registers, i) < r THEN
      registers := set_byte(registers, i, r);
    END IF;
  END LOOP;
  RETURN registers;
END $$;--> statement-breakpoint
-- History: the visitors of each day, the visitors of each category that day (both kept exactly until now) and, for
-- the days whose events retention still keeps, the visitors per device (the device of their first event that day).
CREATE TEMPORARY TABLE sketch_source ON COMMIT DROP AS
SELECT domain_uuid, day, 'visitors'::text AS dimension, ''::text AS value, visitor_hash(person_uuid) AS h
FROM daily_visitors
UNION ALL
SELECT domain_uuid, day, 'event_visitors', category, visitor_hash(person_uuid) FROM daily_event_visitors
UNION ALL
SELECT domain_uuid, day, 'visitors_device', coalesce(device, ''), visitor_hash(person_uuid)
FROM (
  SELECT DISTINCT ON (e.domain_uuid, (e.ts AT TIME ZONE d.timezone)::date, e.person_uuid)
    e.domain_uuid, (e.ts AT TIME ZONE d.timezone)::date AS day, e.person_uuid, e.device
  FROM events e JOIN domains d ON d.uuid = e.domain_uuid
  WHERE e.person_uuid IS NOT NULL
  ORDER BY e.domain_uuid, (e.ts AT TIME ZONE d.timezone)::date, e.person_uuid, e.ts, e.id
) AS first_of_day;--> statement-breakpoint
INSERT INTO daily_sketches (domain_uuid, day, dimension, value, hashes)
SELECT domain_uuid, day, dimension, value, array_agg(DISTINCT h ORDER BY h)
FROM sketch_source GROUP BY 1, 2, 3, 4 HAVING count(DISTINCT h) <= 256;--> statement-breakpoint
WITH big AS (
  SELECT domain_uuid, day, dimension, value FROM sketch_source GROUP BY 1, 2, 3, 4 HAVING count(DISTINCT h) > 256
), ranks AS (
  SELECT s.domain_uuid, s.day, s.dimension, s.value, sketch_index(s.h) AS i, max(sketch_rank(s.h)) AS r
  FROM sketch_source s JOIN big USING (domain_uuid, day, dimension, value)
  GROUP BY 1, 2, 3, 4, 5
)
INSERT INTO daily_sketches (domain_uuid, day, dimension, value, registers)
SELECT b.domain_uuid, b.day, b.dimension, b.value,
  decode(string_agg(lpad(to_hex(coalesce(r.r, 0)), 2, '0'), '' ORDER BY g.i), 'hex')
FROM big b CROSS JOIN generate_series(0, 16383) AS g(i)
LEFT JOIN ranks r ON r.domain_uuid = b.domain_uuid AND r.day = b.day AND r.dimension = b.dimension
  AND r.value = b.value AND r.i = g.i
GROUP BY b.domain_uuid, b.day, b.dimension, b.value;
