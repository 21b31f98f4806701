CREATE TABLE "ingest_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL
);
