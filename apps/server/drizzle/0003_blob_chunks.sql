CREATE TABLE IF NOT EXISTS "blob_chunks" (
	"key" text NOT NULL,
	"chunk" integer NOT NULL,
	"data" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blob_chunks_key_chunk_pk" PRIMARY KEY("key","chunk")
);
