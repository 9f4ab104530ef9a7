-- The users search matches any part of a name or an address; trigram indexes (pg_trgm) serve it. PostgreSQL's
-- contrib modules include pg_trgm; a server without them fails here with the fix named rather than "could not
-- open extension control file".
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    RAISE EXCEPTION 'Latchkey needs the PostgreSQL extension pg_trgm, which this PostgreSQL server does not have: install its contrib modules (e.g. the postgresql-contrib package), then start Latchkey again';
  END IF;
END $$;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "contact_channels_value_trgm_idx" ON "contact_channels" USING gin ("value" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_display_name_trgm_idx" ON "users" USING gin ("display_name" gin_trgm_ops);