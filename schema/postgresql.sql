-- edihub store schema for PostgreSQL, as numbered migrations.
--
-- The same tables as schema/sqlite.sql at its latest migration, with
-- PostgreSQL types. A node applies every migration above the highest one in
-- schema_version when it opens the store, each in its own transaction, under
-- an advisory lock: nodes starting at once migrate once. Add a change as a new
-- "-- migration N: ..." block at the end; never edit an applied one. Times are
-- milliseconds since the Unix epoch from the database's clock, never a node's.

-- migration 1: initial schema (SQLite's migrations 1-3)
CREATE TABLE idempotency_keys (
  partner_id      TEXT    NOT NULL,
  message_id      TEXT    NOT NULL,  -- as2:<id> as4:<id> x12:<ISA06>:<ISA13> edifact:<0004>:<0020>
  protocol        TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('processing', 'completed', 'failed')),
  received_at     BIGINT  NOT NULL,
  updated_at      BIGINT  NOT NULL,
  lease_until     BIGINT,            -- set while processing
  attempts        BIGINT  NOT NULL DEFAULT 1,  -- also the fencing token
  failures        BIGINT  NOT NULL DEFAULT 0,
  payload_sha256  TEXT    NOT NULL,
  raw_sha256      TEXT    NOT NULL,
  receipt_status  BIGINT,
  receipt_headers TEXT,
  receipt_body    BYTEA,
  outcome         TEXT,
  error           TEXT,
  PRIMARY KEY (partner_id, message_id)
);
CREATE INDEX idempotency_keys_received_at ON idempotency_keys (received_at);

CREATE TABLE messages (
  id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  received_at  BIGINT  NOT NULL,
  partner_id   TEXT,
  protocol     TEXT    NOT NULL,
  transport    TEXT    NOT NULL,
  transport_id TEXT,
  message_id   TEXT,
  outcome      TEXT    NOT NULL CHECK (outcome IN ('processed', 'duplicate', 'conflict', 'rejected', 'poison',
                                                   'in-flight', 'error', 'archived')),
  bytes        BIGINT  NOT NULL DEFAULT 0,
  documents    BIGINT  NOT NULL DEFAULT 0,
  duration_ms  BIGINT  NOT NULL DEFAULT 0,
  detail       TEXT,
  capture_id   BIGINT
);
CREATE INDEX messages_received_at ON messages (received_at);
CREATE INDEX messages_outcome ON messages (outcome, received_at);
CREATE INDEX messages_message_id ON messages (partner_id, message_id);

CREATE TABLE shipment_notices (
  partner_id      TEXT    NOT NULL,
  document_number TEXT    NOT NULL,
  purpose         TEXT    NOT NULL,
  status          TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date   TEXT    NOT NULL,
  ship_date       TEXT,
  order_number    TEXT,
  ship_from       TEXT,
  ship_to         TEXT,
  carrier         TEXT,
  gross_weight    TEXT,
  source          TEXT    NOT NULL,
  versions        BIGINT  NOT NULL DEFAULT 1,
  created_at      BIGINT  NOT NULL,
  updated_at      BIGINT  NOT NULL,
  PRIMARY KEY (partner_id, document_number)
);

CREATE TABLE shipment_notice_lines (
  partner_id      TEXT    NOT NULL,
  document_number TEXT    NOT NULL,
  position        BIGINT  NOT NULL,
  line_number     BIGINT  NOT NULL,
  item_id         TEXT,
  item_id_type    TEXT,
  supplier_item   TEXT,
  quantity        TEXT    NOT NULL,
  unit            TEXT,
  order_number    TEXT,
  PRIMARY KEY (partner_id, document_number, position),
  FOREIGN KEY (partner_id, document_number)
    REFERENCES shipment_notices (partner_id, document_number) ON DELETE CASCADE
);

CREATE TABLE invoices (
  partner_id       TEXT    NOT NULL,
  invoice_number   TEXT    NOT NULL,
  credit_note      BIGINT  NOT NULL DEFAULT 0,
  purpose          TEXT    NOT NULL,
  status           TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date    TEXT    NOT NULL,
  order_number     TEXT,
  currency         TEXT,
  total_minor      BIGINT  NOT NULL,
  tax_minor        BIGINT,
  line_total_minor BIGINT,
  source           TEXT    NOT NULL,
  versions         BIGINT  NOT NULL DEFAULT 1,
  created_at       BIGINT  NOT NULL,
  updated_at       BIGINT  NOT NULL,
  PRIMARY KEY (partner_id, invoice_number)
);

CREATE TABLE invoice_lines (
  partner_id     TEXT    NOT NULL,
  invoice_number TEXT    NOT NULL,
  position       BIGINT  NOT NULL,
  line_number    BIGINT  NOT NULL,
  item_id        TEXT,
  item_id_type   TEXT,
  quantity       TEXT    NOT NULL,
  unit           TEXT,
  unit_price     TEXT,
  amount_minor   BIGINT  NOT NULL,
  PRIMARY KEY (partner_id, invoice_number, position),
  FOREIGN KEY (partner_id, invoice_number)
    REFERENCES invoices (partner_id, invoice_number) ON DELETE CASCADE
);

CREATE TABLE outbox (
  id               BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  partner_id       TEXT    NOT NULL,
  kind             TEXT    NOT NULL,
  reference        TEXT,
  channel          TEXT    NOT NULL CHECK (channel IN ('http', 'as2', 'as4', 'dir', 'webhook')),
  destination      TEXT    NOT NULL,
  message_id       TEXT    NOT NULL,
  headers          TEXT,
  body             BYTEA   NOT NULL,
  prepared_headers TEXT,
  prepared         BYTEA,
  state            TEXT    NOT NULL DEFAULT 'pending'
                   CHECK (state IN ('pending', 'in-flight', 'sent', 'delivered', 'failed', 'cancelled')),
  attempts         BIGINT  NOT NULL DEFAULT 0,
  created_at       BIGINT  NOT NULL,
  next_attempt_at  BIGINT  NOT NULL,
  last_error       TEXT,
  receipt          BYTEA,
  delivered_at     BIGINT
);
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_partner ON outbox (partner_id, state);
CREATE INDEX outbox_message_id ON outbox (message_id);

CREATE TABLE sequences (
  name  TEXT    PRIMARY KEY,
  value BIGINT  NOT NULL
);

CREATE TABLE captures (
  id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  received_at BIGINT  NOT NULL,
  partner_id  TEXT    NOT NULL,
  protocol    TEXT    NOT NULL,
  message_id  TEXT    NOT NULL,
  raw_sha256  TEXT    NOT NULL,
  head        BYTEA   NOT NULL,
  body        BYTEA   NOT NULL
);
CREATE INDEX captures_received_at ON captures (received_at);
CREATE INDEX captures_message ON captures (partner_id, message_id);

CREATE TABLE conflict_receipts (
  partner_id      TEXT    NOT NULL,
  message_id      TEXT    NOT NULL,
  raw_sha256      TEXT    NOT NULL,
  created_at      BIGINT  NOT NULL,
  receipt_status  BIGINT  NOT NULL,
  receipt_headers TEXT    NOT NULL,
  receipt_body    BYTEA   NOT NULL,
  PRIMARY KEY (partner_id, message_id, raw_sha256)
);

-- migration 2: lease owners (SQLite's migration 4)
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
CREATE TABLE lease_owners (
  id           TEXT    PRIMARY KEY,  -- node id + ':' + instance
  node         TEXT    NOT NULL,
  started_at   BIGINT  NOT NULL,
  heartbeat_at BIGINT  NOT NULL
);

-- migration 3: an index on the keys not completed, for /metrics (SQLite's migration 5)
CREATE INDEX idempotency_keys_open ON idempotency_keys (state, failures) WHERE state <> 'completed';

-- migration 4: the operator console (SQLite's migration 6)
CREATE TABLE operators (
  name          TEXT    PRIMARY KEY,
  password_hash TEXT    NOT NULL,
  role          TEXT    NOT NULL CHECK (role IN ('viewer', 'operator')),
  created_at    BIGINT  NOT NULL
);
CREATE TABLE console_sessions (
  token_sha256 TEXT    PRIMARY KEY,
  operator     TEXT    NOT NULL REFERENCES operators (name) ON DELETE CASCADE,
  csrf         TEXT    NOT NULL,
  created_at   BIGINT  NOT NULL,
  expires_at   BIGINT  NOT NULL
);
CREATE TABLE audit (
  id       BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at       BIGINT  NOT NULL,
  operator TEXT    NOT NULL,
  action   TEXT    NOT NULL,
  target   TEXT    NOT NULL,
  result   TEXT    NOT NULL,
  peer     TEXT
);
CREATE INDEX audit_action ON audit (action, at);  -- the last purge, for /metrics
CREATE INDEX messages_partner ON messages (partner_id, id);
DROP INDEX messages_outcome;
CREATE INDEX messages_outcome ON messages (outcome, id);
CREATE INDEX messages_transport_id ON messages (transport_id);
DROP INDEX messages_message_id;
CREATE INDEX messages_key ON messages (message_id);
CREATE INDEX outbox_reference ON outbox (reference);
CREATE INDEX invoices_source ON invoices (partner_id, source);
CREATE INDEX shipment_notices_source ON shipment_notices (partner_id, source);

-- migration 5: purchase orders and order responses (SQLite's migration 7)
CREATE TABLE orders (
  partner_id     TEXT    NOT NULL,
  order_number   TEXT    NOT NULL,  -- BEG03 / BGM 1004
  purpose        TEXT    NOT NULL,  -- original, replace, cancel (of the version booked)
  status         TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date  TEXT    NOT NULL,  -- BEG05 / DTM+137: orders versions
  order_type     TEXT,              -- BEG02 (SA, NE ...) / BGM 1001 (220 ...)
  currency       TEXT,
  buyer          TEXT,              -- N1*BY / NAD+BY party id
  seller         TEXT,              -- N1*SE (SU, VN) / NAD+SU
  ship_to        TEXT,              -- N1*ST / NAD+DP (ST)
  delivery_date  TEXT,              -- DTM*002 / DTM+2
  total_minor    BIGINT ,            -- AMT*TT / MOA+86 (79), minor units
  source         TEXT    NOT NULL,
  versions       BIGINT   NOT NULL DEFAULT 1,
  created_at     BIGINT   NOT NULL,
  updated_at     BIGINT   NOT NULL,
  PRIMARY KEY (partner_id, order_number)
);
CREATE INDEX orders_source ON orders (partner_id, source);
CREATE TABLE order_lines (
  partner_id   TEXT    NOT NULL,
  order_number TEXT    NOT NULL,
  position     BIGINT   NOT NULL,
  line_number  BIGINT   NOT NULL,
  item_id      TEXT,
  item_id_type TEXT,
  quantity     TEXT    NOT NULL,  -- decimal text
  unit         TEXT,
  unit_price   TEXT,              -- decimal text
  PRIMARY KEY (partner_id, order_number, position),
  FOREIGN KEY (partner_id, order_number) REFERENCES orders (partner_id, order_number) ON DELETE CASCADE
);
CREATE TABLE order_responses (
  partner_id      TEXT    NOT NULL,
  response_number TEXT    NOT NULL,  -- BAK08 (else BAK03) / BGM 1004
  purpose         TEXT    NOT NULL,
  status          TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date   TEXT    NOT NULL,
  order_number    TEXT    NOT NULL,  -- BAK03 / RFF+ON: the order answered
  response_type   TEXT,              -- BAK02 (AC, AD, RJ ...) / BGM 4343 (else 1225)
  buyer           TEXT,
  seller          TEXT,
  source          TEXT    NOT NULL,
  versions        BIGINT   NOT NULL DEFAULT 1,
  created_at      BIGINT   NOT NULL,
  updated_at      BIGINT   NOT NULL,
  PRIMARY KEY (partner_id, response_number)
);
CREATE INDEX order_responses_source ON order_responses (partner_id, source);
CREATE TABLE order_response_lines (
  partner_id      TEXT    NOT NULL,
  response_number TEXT    NOT NULL,
  position        BIGINT   NOT NULL,
  line_number     BIGINT   NOT NULL,
  item_id         TEXT,
  item_id_type    TEXT,
  quantity        TEXT,
  unit            TEXT,
  line_status     TEXT,              -- ACK01 / LIN 1229
  PRIMARY KEY (partner_id, response_number, position),
  FOREIGN KEY (partner_id, response_number)
    REFERENCES order_responses (partner_id, response_number) ON DELETE CASCADE
);

-- migration 6: Peppol documents exchanged with other access points, for the
-- monthly Peppol reports (SQLite's migration 9).
CREATE TABLE peppol_exchanges (
  partner_id           TEXT    NOT NULL,
  message_id           TEXT    NOT NULL,
  direction            TEXT    NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
  exchanged_at         BIGINT  NOT NULL,
  other_sp             TEXT    NOT NULL,
  transport_profile    TEXT    NOT NULL,
  document_type_scheme TEXT    NOT NULL,
  document_type        TEXT    NOT NULL,
  process_scheme       TEXT    NOT NULL,
  process              TEXT    NOT NULL,
  sender               TEXT    NOT NULL,
  receiver             TEXT    NOT NULL,
  c1_country           TEXT    NOT NULL,
  c4_country           TEXT    NOT NULL,
  PRIMARY KEY (partner_id, message_id)
);
CREATE INDEX peppol_exchanges_exchanged_at ON peppol_exchanges (exchanged_at);

-- migration 7: the documents' source indexes lead with the source. Led by
-- partner_id, an index on (partner_id, source) tied in the planner's eyes with
-- the primary key (partner_id, number) for a lookup of one document while the
-- table had no statistics, and it won: the foreign key check of every line of
-- a new invoice then walked every invoice of the partner (measured: half of
-- PostgreSQL's CPU at 600 invoices of one partner, 300 lines each). The lookup by
-- source (partner_id = $1 AND source = $2) is served as well either way.
DROP INDEX invoices_source;
DROP INDEX shipment_notices_source;
DROP INDEX orders_source;
DROP INDEX order_responses_source;
CREATE INDEX invoices_source ON invoices (source, partner_id);
CREATE INDEX shipment_notices_source ON shipment_notices (source, partner_id);
CREATE INDEX orders_source ON orders (source, partner_id);
CREATE INDEX order_responses_source ON order_responses (source, partner_id);

-- migration 8: a document's lines refer to it through statement triggers, not
-- a FOREIGN KEY. PostgreSQL checks a foreign key row by row (one query per
-- line: a third of its CPU for a 300-line invoice); these check the lines of
-- one INSERT or UPDATE in one query, with the same effect: a line of a
-- document that does not exist is refused (SQLSTATE 23503), the documents
-- named are locked FOR KEY SHARE until the transaction ends (not deleted nor
-- re-keyed meanwhile), deleting a document deletes its lines, and a document
-- that has lines keeps its key (TRUNCATE, which a foreign key refused, does
-- not reach the lines: truncate both). A new document type's migration links
-- its two tables with SELECT edihub_link_lines(lines, documents, number column).
-- edihub_link_lines writes each table's trigger functions with their queries
-- spelled out (PL/pgSQL keeps the plans of static SQL for the session).
CREATE FUNCTION edihub_link_lines(lines TEXT, documents TEXT, number TEXT) RETURNS void LANGUAGE plpgsql AS $link$
BEGIN
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT IF EXISTS %I', lines, lines || '_partner_id_' || number || '_fkey');
  -- The lines of one INSERT or UPDATE: their documents exist, locked FOR KEY SHARE.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF (SELECT count(*) FROM (SELECT 1 FROM %3$I d JOIN (SELECT DISTINCT partner_id, %4$I FROM edihub_lines) l
            ON d.partner_id = l.partner_id AND d.%4$I = l.%4$I FOR KEY SHARE OF d) x)
         < (SELECT count(*) FROM (SELECT DISTINCT partner_id, %4$I FROM edihub_lines) l) THEN
        RAISE EXCEPTION 'a line of table "%2$s" names no row of "%3$s" (partner_id, %4$s)'
          USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NULL;
    END
    $body$ $f$, 'edihub_' || lines || '_check', lines, documents, number);
  -- Documents deleted: their lines with them.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      DELETE FROM %2$I l USING edihub_gone d WHERE l.partner_id = d.partner_id AND l.%4$I = d.%4$I;
      RETURN NULL;
    END
    $body$ $f$, 'edihub_' || lines || '_cascade', lines, documents, number);
  -- Documents updated: none that has lines changes its key.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF EXISTS (SELECT 1 FROM edihub_old o WHERE NOT EXISTS (SELECT 1 FROM edihub_new n
            WHERE n.partner_id = o.partner_id AND n.%4$I = o.%4$I)
            AND EXISTS (SELECT 1 FROM %2$I l WHERE l.partner_id = o.partner_id AND l.%4$I = o.%4$I)) THEN
        RAISE EXCEPTION 'a row of table "%3$s" that has lines in "%2$s" keeps its key (partner_id, %4$s)'
          USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NULL;
    END
    $body$ $f$, 'edihub_' || lines || '_keep_key', lines, documents, number);
  EXECUTE format('CREATE TRIGGER edihub_lines_added AFTER INSERT ON %I REFERENCING NEW TABLE AS edihub_lines'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', lines, 'edihub_' || lines || '_check');
  EXECUTE format('CREATE TRIGGER edihub_lines_changed AFTER UPDATE ON %I REFERENCING NEW TABLE AS edihub_lines'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', lines, 'edihub_' || lines || '_check');
  EXECUTE format('CREATE TRIGGER edihub_lines_cascade AFTER DELETE ON %I REFERENCING OLD TABLE AS edihub_gone'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', documents, 'edihub_' || lines || '_cascade');
  EXECUTE format('CREATE TRIGGER edihub_lines_keep_key AFTER UPDATE ON %I'
                 ' REFERENCING OLD TABLE AS edihub_old NEW TABLE AS edihub_new'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', documents, 'edihub_' || lines || '_keep_key');
END
$link$;

SELECT edihub_link_lines('shipment_notice_lines', 'shipment_notices', 'document_number');
SELECT edihub_link_lines('invoice_lines', 'invoices', 'invoice_number');
SELECT edihub_link_lines('order_lines', 'orders', 'order_number');
SELECT edihub_link_lines('order_response_lines', 'order_responses', 'response_number');

-- migration 9: the answers a message-log row stands for (SQLite's migration 10).
-- A row is one answer, except a count row: past a client's limits
-- (<limits max-log-rows-per-client>) its answers of one outcome in a minute
-- are one row, and `answers` says how many.
ALTER TABLE messages ADD COLUMN answers BIGINT NOT NULL DEFAULT 1;

-- migration 10: an invoice and a credit note numbered alike are two documents
-- (SQLite's migration 11). The key is (partner_id, invoice_number,
-- credit_note), for the lines too (a column credit_note added to
-- invoice_lines), and the lines' triggers of migration 8 are written again on
-- that key by edihub_link_lines_on, which takes the key's columns; a type whose
-- key is (partner_id, number) keeps the triggers edihub_link_lines wrote.
ALTER TABLE invoice_lines ADD COLUMN credit_note BIGINT NOT NULL DEFAULT 0;
UPDATE invoice_lines l SET credit_note = i.credit_note FROM invoices i
  WHERE i.partner_id = l.partner_id AND i.invoice_number = l.invoice_number AND i.credit_note <> 0;
DROP TRIGGER edihub_lines_added ON invoice_lines;
DROP TRIGGER edihub_lines_changed ON invoice_lines;
DROP TRIGGER edihub_lines_cascade ON invoices;
DROP TRIGGER edihub_lines_keep_key ON invoices;
DROP FUNCTION edihub_invoice_lines_check();
DROP FUNCTION edihub_invoice_lines_cascade();
DROP FUNCTION edihub_invoice_lines_keep_key();
ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_pkey;
ALTER TABLE invoice_lines ADD PRIMARY KEY (partner_id, invoice_number, credit_note, position);
ALTER TABLE invoices DROP CONSTRAINT invoices_pkey;
ALTER TABLE invoices ADD PRIMARY KEY (partner_id, invoice_number, credit_note);
CREATE FUNCTION edihub_link_lines_on(lines TEXT, documents TEXT, key TEXT[]) RETURNS void LANGUAGE plpgsql AS $link$
DECLARE
  cols TEXT := (SELECT string_agg(format('%I', k), ', ') FROM unnest(key) k);
  dl TEXT := (SELECT string_agg(format('d.%1$I = l.%1$I', k), ' AND ') FROM unnest(key) k);
  ld TEXT := (SELECT string_agg(format('l.%1$I = d.%1$I', k), ' AND ') FROM unnest(key) k);
  no TEXT := (SELECT string_agg(format('n.%1$I = o.%1$I', k), ' AND ') FROM unnest(key) k);
  lo TEXT := (SELECT string_agg(format('l.%1$I = o.%1$I', k), ' AND ') FROM unnest(key) k);
BEGIN
  -- The lines of one INSERT or UPDATE: their documents exist, locked FOR KEY SHARE.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF (SELECT count(*) FROM (SELECT 1 FROM %3$I d JOIN (SELECT DISTINCT %4$s FROM edihub_lines) l
            ON %5$s FOR KEY SHARE OF d) x)
         < (SELECT count(*) FROM (SELECT DISTINCT %4$s FROM edihub_lines) l) THEN
        RAISE EXCEPTION 'a line of table "%2$s" names no row of "%3$s" (%4$s)'
          USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NULL;
    END
    $body$ $f$, 'edihub_' || lines || '_check', lines, documents, cols, dl);
  -- Documents deleted: their lines with them.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      DELETE FROM %2$I l USING edihub_gone d WHERE %3$s;
      RETURN NULL;
    END
    $body$ $f$, 'edihub_' || lines || '_cascade', lines, ld);
  -- Documents updated: none that has lines changes its key.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF EXISTS (SELECT 1 FROM edihub_old o WHERE NOT EXISTS (SELECT 1 FROM edihub_new n WHERE %4$s)
            AND EXISTS (SELECT 1 FROM %2$I l WHERE %5$s)) THEN
        RAISE EXCEPTION 'a row of table "%3$s" that has lines in "%2$s" keeps its key (%6$s)'
          USING ERRCODE = 'foreign_key_violation';
      END IF;
      RETURN NULL;
    END
    $body$ $f$, 'edihub_' || lines || '_keep_key', lines, documents, no, lo, cols);
  EXECUTE format('CREATE TRIGGER edihub_lines_added AFTER INSERT ON %I REFERENCING NEW TABLE AS edihub_lines'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', lines, 'edihub_' || lines || '_check');
  EXECUTE format('CREATE TRIGGER edihub_lines_changed AFTER UPDATE ON %I REFERENCING NEW TABLE AS edihub_lines'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', lines, 'edihub_' || lines || '_check');
  EXECUTE format('CREATE TRIGGER edihub_lines_cascade AFTER DELETE ON %I REFERENCING OLD TABLE AS edihub_gone'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', documents, 'edihub_' || lines || '_cascade');
  EXECUTE format('CREATE TRIGGER edihub_lines_keep_key AFTER UPDATE ON %I'
                 ' REFERENCING OLD TABLE AS edihub_old NEW TABLE AS edihub_new'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION %I()', documents, 'edihub_' || lines || '_keep_key');
END
$link$;
SELECT edihub_link_lines_on('invoice_lines', 'invoices', ARRAY['partner_id', 'invoice_number', 'credit_note']);

-- migration 11: the back office receives the versions of one document in the
-- order they were booked (SQLite's migration 12): a row is not due while an
-- earlier row of its order_key (the document: kind, partner, number) is
-- pending, in flight or failed.
ALTER TABLE outbox ADD COLUMN order_key TEXT;
CREATE INDEX outbox_order ON outbox (order_key, id) WHERE order_key IS NOT NULL;
