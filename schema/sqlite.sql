-- edihub store schema for SQLite, as numbered migrations.
--
-- The binary applies every migration whose number is above the highest one in
-- schema_version, each in its own transaction, when it opens the store. Add a
-- change as a new "-- migration N: ..." block at the end; never edit an
-- applied one. Times are milliseconds since the Unix epoch, from the store's
-- clock. Money is integer minor units or decimal text, never REAL.

-- migration 1: initial schema
CREATE TABLE idempotency_keys (
  partner_id      TEXT    NOT NULL,
  message_id      TEXT    NOT NULL,  -- as2:<id> as4:<id> x12:<ISA06>:<ISA13> edifact:<0004>:<0020>
  protocol        TEXT    NOT NULL,
  state           TEXT    NOT NULL CHECK (state IN ('processing', 'completed', 'failed')),
  received_at     INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  lease_until     INTEGER,           -- set while processing
  attempts        INTEGER NOT NULL DEFAULT 1,  -- also the fencing token
  failures        INTEGER NOT NULL DEFAULT 0,  -- permanent failures; poison at the limit
  payload_sha256  TEXT    NOT NULL,  -- decrypted, verified content / interchange bytes
  raw_sha256      TEXT    NOT NULL,  -- the bytes as received
  receipt_status  INTEGER,           -- the stored answer, reproduced byte for byte
  receipt_headers TEXT,
  receipt_body    BLOB,
  outcome         TEXT,
  error           TEXT,
  PRIMARY KEY (partner_id, message_id)
);
CREATE INDEX idempotency_keys_received_at ON idempotency_keys (received_at);

CREATE TABLE messages (
  id           INTEGER PRIMARY KEY,
  received_at  INTEGER NOT NULL,
  partner_id   TEXT,
  protocol     TEXT    NOT NULL,     -- as2, as4, x12, edifact
  transport    TEXT    NOT NULL,     -- http, replay
  transport_id TEXT,                 -- AS2 Message-ID, AS4 MessageId, replayed file
  message_id   TEXT,                 -- the idempotency key's message_id
  outcome      TEXT    NOT NULL CHECK (outcome IN ('processed', 'duplicate', 'conflict', 'rejected', 'error')),
  bytes        INTEGER NOT NULL DEFAULT 0,
  documents    INTEGER NOT NULL DEFAULT 0,
  duration_ms  INTEGER NOT NULL DEFAULT 0,
  detail       TEXT
);
CREATE INDEX messages_received_at ON messages (received_at);
CREATE INDEX messages_outcome ON messages (outcome, received_at);

CREATE TABLE shipment_notices (
  partner_id      TEXT    NOT NULL,
  document_number TEXT    NOT NULL,
  purpose         TEXT    NOT NULL,  -- original, replace, cancel (of the version booked)
  status          TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date   TEXT    NOT NULL,  -- CCYYMMDD[HHMM[SS]]: orders versions
  ship_date       TEXT,
  order_number    TEXT,
  ship_from       TEXT,
  ship_to         TEXT,
  carrier         TEXT,
  gross_weight    TEXT,
  source          TEXT    NOT NULL,  -- idempotency message_id of the interchange
  versions        INTEGER NOT NULL DEFAULT 1,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  PRIMARY KEY (partner_id, document_number)
);

CREATE TABLE shipment_notice_lines (
  partner_id      TEXT    NOT NULL,
  document_number TEXT    NOT NULL,
  position        INTEGER NOT NULL,
  line_number     INTEGER NOT NULL,
  item_id         TEXT,
  item_id_type    TEXT,
  supplier_item   TEXT,
  quantity        TEXT    NOT NULL,  -- decimal text
  unit            TEXT,
  order_number    TEXT,
  PRIMARY KEY (partner_id, document_number, position),
  FOREIGN KEY (partner_id, document_number)
    REFERENCES shipment_notices (partner_id, document_number) ON DELETE CASCADE
);

CREATE TABLE invoices (
  partner_id       TEXT    NOT NULL,
  invoice_number   TEXT    NOT NULL,
  credit_note      INTEGER NOT NULL DEFAULT 0,
  purpose          TEXT    NOT NULL,
  status           TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date    TEXT    NOT NULL,
  order_number     TEXT,
  currency         TEXT,
  total_minor      INTEGER NOT NULL,
  tax_minor        INTEGER,
  line_total_minor INTEGER,
  source           TEXT    NOT NULL,
  versions         INTEGER NOT NULL DEFAULT 1,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (partner_id, invoice_number)
);

CREATE TABLE invoice_lines (
  partner_id     TEXT    NOT NULL,
  invoice_number TEXT    NOT NULL,
  position       INTEGER NOT NULL,
  line_number    INTEGER NOT NULL,
  item_id        TEXT,
  item_id_type   TEXT,
  quantity       TEXT    NOT NULL,
  unit           TEXT,
  unit_price     TEXT,
  amount_minor   INTEGER NOT NULL,
  PRIMARY KEY (partner_id, invoice_number, position),
  FOREIGN KEY (partner_id, invoice_number)
    REFERENCES invoices (partner_id, invoice_number) ON DELETE CASCADE
);

-- Receipts and acknowledgments to deliver later (async MDN, functional acks).
CREATE TABLE outbox (
  id              INTEGER PRIMARY KEY,
  partner_id      TEXT    NOT NULL,
  kind            TEXT    NOT NULL,  -- mdn, ta1, 997, 999, contrl, as4-receipt
  reference       TEXT,              -- the idempotency message_id it answers
  destination     TEXT,              -- URL, or empty for pick-up
  headers         TEXT,
  body            BLOB    NOT NULL,
  state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  last_error      TEXT
);
CREATE INDEX outbox_pending ON outbox (state, next_attempt_at);

-- Counters for the control numbers of what edihub sends (ISA13 of acks ...).
CREATE TABLE sequences (
  name  TEXT    PRIMARY KEY,
  value INTEGER NOT NULL
);

-- migration 2: archived requests and conflict answers in the store, outcome words
-- Captures: the request exactly as received, committed with the message it
-- belongs to (no file created or fsynced per request).
CREATE TABLE captures (
  id          INTEGER PRIMARY KEY,
  received_at INTEGER NOT NULL,
  partner_id  TEXT    NOT NULL,
  protocol    TEXT    NOT NULL,  -- as2, as4
  message_id  TEXT    NOT NULL,  -- the transport key's message_id
  raw_sha256  TEXT    NOT NULL,
  head        BLOB    NOT NULL,  -- request line + header block as received
  body        BLOB    NOT NULL
);
CREATE INDEX captures_received_at ON captures (received_at);
CREATE INDEX captures_message ON captures (partner_id, message_id);

-- The answer to a conflicting message (same id, other content), by its raw
-- digest: a partner looping on it gets the same bytes, without a signature.
CREATE TABLE conflict_receipts (
  partner_id      TEXT    NOT NULL,
  message_id      TEXT    NOT NULL,
  raw_sha256      TEXT    NOT NULL,
  created_at      INTEGER NOT NULL,
  receipt_status  INTEGER NOT NULL,
  receipt_headers TEXT    NOT NULL,
  receipt_body    BLOB    NOT NULL,
  PRIMARY KEY (partner_id, message_id, raw_sha256)
);

-- The message log gains the outcome words poison, in-flight and archived, and
-- the capture a row belongs to (SQLite cannot alter a CHECK: the table is rebuilt).
CREATE TABLE messages_v2 (
  id           INTEGER PRIMARY KEY,
  received_at  INTEGER NOT NULL,
  partner_id   TEXT,
  protocol     TEXT    NOT NULL,
  transport    TEXT    NOT NULL,
  transport_id TEXT,
  message_id   TEXT,
  outcome      TEXT    NOT NULL CHECK (outcome IN ('processed', 'duplicate', 'conflict', 'rejected', 'poison',
                                                   'in-flight', 'error', 'archived')),
  bytes        INTEGER NOT NULL DEFAULT 0,
  documents    INTEGER NOT NULL DEFAULT 0,
  duration_ms  INTEGER NOT NULL DEFAULT 0,
  detail       TEXT,
  capture_id   INTEGER
);
INSERT INTO messages_v2 (id, received_at, partner_id, protocol, transport, transport_id, message_id, outcome,
                         bytes, documents, duration_ms, detail)
  SELECT id, received_at, partner_id, protocol, transport, transport_id, message_id, outcome, bytes, documents,
         duration_ms, detail FROM messages;
DROP TABLE messages;
ALTER TABLE messages_v2 RENAME TO messages;
CREATE INDEX messages_received_at ON messages (received_at);
CREATE INDEX messages_outcome ON messages (outcome, received_at);
CREATE INDEX messages_message_id ON messages (partner_id, message_id);

-- Acknowledgments were queued with no destination and never left: they are
-- the keys' stored receipts already.
DELETE FROM outbox WHERE destination IS NULL OR destination = '';

-- migration 3: the outbox as the one way out
-- Every row says how it travels (channel) and carries the identity it keeps
-- on every retry (message_id: the AS2 Message-ID, the AS4 MessageId, the
-- Idempotency-Key, the file name); an AS2/AS4 message is built once and its
-- bytes reused (prepared); a delivered row keeps the MDN or Receipt.
CREATE TABLE outbox_v3 (
  id               INTEGER PRIMARY KEY,
  partner_id       TEXT    NOT NULL,
  kind             TEXT    NOT NULL,  -- mdn, 997, 999, ta1, contrl, document
  reference        TEXT,              -- the key it answers, the document version
  channel          TEXT    NOT NULL CHECK (channel IN ('http', 'as2', 'as4', 'dir', 'webhook')),
  destination      TEXT    NOT NULL,  -- URL or directory
  message_id       TEXT    NOT NULL,  -- fixed at enqueue
  headers          TEXT,
  body             BLOB    NOT NULL,  -- what is sent: the MDN, the acknowledgment, the JSON
  prepared_headers TEXT,              -- the message as first built (AS2: signed, encrypted)
  prepared         BLOB,
  state            TEXT    NOT NULL DEFAULT 'pending'
                   CHECK (state IN ('pending', 'in-flight', 'sent', 'delivered', 'failed', 'cancelled')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  next_attempt_at  INTEGER NOT NULL,  -- pending: when; in-flight: until when the lease holds
  last_error       TEXT,
  receipt          BLOB,              -- the partner's MDN or Receipt, when delivered
  delivered_at     INTEGER
);
INSERT INTO outbox_v3 (id, partner_id, kind, reference, channel, destination, message_id, headers, body, state,
                       attempts, created_at, next_attempt_at, last_error)
  SELECT id, partner_id, kind, reference, 'http', destination, 'outbox-' || id, headers, body,
         CASE state WHEN 'sent' THEN 'delivered' ELSE state END, attempts, created_at, next_attempt_at, last_error
  FROM outbox WHERE destination IS NOT NULL AND destination <> '';
DROP TABLE outbox;
ALTER TABLE outbox_v3 RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
CREATE INDEX outbox_partner ON outbox (partner_id, state);
CREATE INDEX outbox_message_id ON outbox (message_id);

-- migration 4: lease owners
-- A processing key names who holds its lease (node id + a per-start
-- instance); owners beat here. A restarted node takes over its previous
-- instance's leases at once, any node those of an owner whose heartbeat
-- stopped: a crash no longer stalls a key for the whole lease.
ALTER TABLE idempotency_keys ADD COLUMN owner TEXT;
CREATE TABLE lease_owners (
  id           TEXT    PRIMARY KEY,  -- node id + ':' + instance
  node         TEXT    NOT NULL,
  started_at   INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);

-- migration 5: an index on the keys not completed, for /metrics
-- A scrape counts processing and failed keys every few seconds: through this
-- partial index it reads only those rows, never the whole table.
CREATE INDEX idempotency_keys_open ON idempotency_keys (state, failures) WHERE state <> 'completed';

-- migration 6: the operator console: accounts, sessions, the audit trail, and
-- the indexes its pages read by (a partner's newest messages, one transport
-- message's rows, the outbox rows and documents an interchange caused)
CREATE TABLE operators (
  name          TEXT    PRIMARY KEY,
  password_hash TEXT    NOT NULL,  -- crypto/password.h, never the password
  role          TEXT    NOT NULL CHECK (role IN ('viewer', 'operator')),
  created_at    INTEGER NOT NULL
);
CREATE TABLE console_sessions (
  token_sha256 TEXT    PRIMARY KEY,  -- the cookie's digest: a stolen database holds no session
  operator     TEXT    NOT NULL REFERENCES operators (name) ON DELETE CASCADE,
  csrf         TEXT    NOT NULL,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
);
CREATE TABLE audit (
  id       INTEGER PRIMARY KEY,
  at       INTEGER NOT NULL,
  operator TEXT    NOT NULL,
  action   TEXT    NOT NULL,
  target   TEXT    NOT NULL,
  result   TEXT    NOT NULL,
  peer     TEXT
);
CREATE INDEX audit_action ON audit (action, at);  -- the last purge, for /metrics
-- A partner's or an outcome's newest messages (an SQLite index ends in the rowid: id order).
CREATE INDEX messages_partner ON messages (partner_id);
DROP INDEX messages_outcome;
CREATE INDEX messages_outcome ON messages (outcome);
CREATE INDEX messages_transport_id ON messages (transport_id);
DROP INDEX messages_message_id;  -- by key alone (keys are namespaced by sender): searched by the console
CREATE INDEX messages_key ON messages (message_id);
CREATE INDEX outbox_reference ON outbox (reference);
CREATE INDEX invoices_source ON invoices (partner_id, source);
CREATE INDEX shipment_notices_source ON shipment_notices (partner_id, source);

-- migration 7: purchase orders and order responses (the document registry,
-- src/business/registry.h: X12 850/855, EDIFACT ORDERS/ORDRSP)
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
  total_minor    INTEGER,            -- AMT*TT / MOA+86 (79), minor units
  source         TEXT    NOT NULL,
  versions       INTEGER  NOT NULL DEFAULT 1,
  created_at     INTEGER  NOT NULL,
  updated_at     INTEGER  NOT NULL,
  PRIMARY KEY (partner_id, order_number)
);
CREATE INDEX orders_source ON orders (partner_id, source);
CREATE TABLE order_lines (
  partner_id   TEXT    NOT NULL,
  order_number TEXT    NOT NULL,
  position     INTEGER  NOT NULL,
  line_number  INTEGER  NOT NULL,
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
  versions        INTEGER  NOT NULL DEFAULT 1,
  created_at      INTEGER  NOT NULL,
  updated_at      INTEGER  NOT NULL,
  PRIMARY KEY (partner_id, response_number)
);
CREATE INDEX order_responses_source ON order_responses (partner_id, source);
CREATE TABLE order_response_lines (
  partner_id      TEXT    NOT NULL,
  response_number TEXT    NOT NULL,
  position        INTEGER  NOT NULL,
  line_number     INTEGER  NOT NULL,
  item_id         TEXT,
  item_id_type    TEXT,
  quantity        TEXT,
  unit            TEXT,
  line_status     TEXT,              -- ACK01 / LIN 1229
  PRIMARY KEY (partner_id, response_number, position),
  FOREIGN KEY (partner_id, response_number)
    REFERENCES order_responses (partner_id, response_number) ON DELETE CASCADE
);

-- migration 8: document lines keyed by their primary key alone (WITHOUT ROWID)
-- A line table's rows are found and written by (partner, number, position):
-- as a rowid table each line was two B-tree inserts (the rows and the
-- primary key's index); keyed by the primary key it is one. Same columns,
-- same foreign keys, same rows.
CREATE TABLE shipment_notice_lines_v8 (
  partner_id      TEXT    NOT NULL,
  document_number TEXT    NOT NULL,
  position        INTEGER NOT NULL,
  line_number     INTEGER NOT NULL,
  item_id         TEXT,
  item_id_type    TEXT,
  supplier_item   TEXT,
  quantity        TEXT    NOT NULL,  -- decimal text
  unit            TEXT,
  order_number    TEXT,
  PRIMARY KEY (partner_id, document_number, position),
  FOREIGN KEY (partner_id, document_number)
    REFERENCES shipment_notices (partner_id, document_number) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO shipment_notice_lines_v8 (partner_id, document_number, position, line_number, item_id, item_id_type, supplier_item, quantity, unit, order_number) SELECT partner_id, document_number, position, line_number, item_id, item_id_type, supplier_item, quantity, unit, order_number FROM shipment_notice_lines;
DROP TABLE shipment_notice_lines;
ALTER TABLE shipment_notice_lines_v8 RENAME TO shipment_notice_lines;
CREATE TABLE invoice_lines_v8 (
  partner_id     TEXT    NOT NULL,
  invoice_number TEXT    NOT NULL,
  position       INTEGER NOT NULL,
  line_number    INTEGER NOT NULL,
  item_id        TEXT,
  item_id_type   TEXT,
  quantity       TEXT    NOT NULL,
  unit           TEXT,
  unit_price     TEXT,
  amount_minor   INTEGER NOT NULL,
  PRIMARY KEY (partner_id, invoice_number, position),
  FOREIGN KEY (partner_id, invoice_number)
    REFERENCES invoices (partner_id, invoice_number) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO invoice_lines_v8 (partner_id, invoice_number, position, line_number, item_id, item_id_type, quantity, unit, unit_price, amount_minor) SELECT partner_id, invoice_number, position, line_number, item_id, item_id_type, quantity, unit, unit_price, amount_minor FROM invoice_lines;
DROP TABLE invoice_lines;
ALTER TABLE invoice_lines_v8 RENAME TO invoice_lines;
CREATE TABLE order_lines_v8 (
  partner_id   TEXT    NOT NULL,
  order_number TEXT    NOT NULL,
  position     INTEGER NOT NULL,
  line_number  INTEGER NOT NULL,
  item_id      TEXT,
  item_id_type TEXT,
  quantity     TEXT    NOT NULL,  -- decimal text
  unit         TEXT,
  unit_price   TEXT,              -- decimal text
  PRIMARY KEY (partner_id, order_number, position),
  FOREIGN KEY (partner_id, order_number)
    REFERENCES orders (partner_id, order_number) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO order_lines_v8 (partner_id, order_number, position, line_number, item_id, item_id_type, quantity, unit, unit_price) SELECT partner_id, order_number, position, line_number, item_id, item_id_type, quantity, unit, unit_price FROM order_lines;
DROP TABLE order_lines;
ALTER TABLE order_lines_v8 RENAME TO order_lines;
CREATE TABLE order_response_lines_v8 (
  partner_id      TEXT    NOT NULL,
  response_number TEXT    NOT NULL,
  position        INTEGER NOT NULL,
  line_number     INTEGER NOT NULL,
  item_id         TEXT,
  item_id_type    TEXT,
  quantity        TEXT,
  unit            TEXT,
  line_status     TEXT,              -- ACK01 / LIN 1229
  PRIMARY KEY (partner_id, response_number, position),
  FOREIGN KEY (partner_id, response_number)
    REFERENCES order_responses (partner_id, response_number) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO order_response_lines_v8 (partner_id, response_number, position, line_number, item_id, item_id_type, quantity, unit, line_status) SELECT partner_id, response_number, position, line_number, item_id, item_id_type, quantity, unit, line_status FROM order_response_lines;
DROP TABLE order_response_lines;
ALTER TABLE order_response_lines_v8 RENAME TO order_response_lines;

-- migration 9: Peppol documents exchanged with other access points, kept for
-- the monthly Peppol reports: one row per document key, written with its booking.
CREATE TABLE peppol_exchanges (
  partner_id           TEXT    NOT NULL,  -- the access point's profile
  message_id           TEXT    NOT NULL,  -- the document's key: peppol:<sender>:<InstanceIdentifier>
  direction            TEXT    NOT NULL CHECK (direction IN ('incoming', 'outgoing')),
  exchanged_at         INTEGER NOT NULL,
  other_sp             TEXT    NOT NULL,  -- the other access point's seat id
  transport_profile    TEXT    NOT NULL,
  document_type_scheme TEXT    NOT NULL,
  document_type        TEXT    NOT NULL,
  process_scheme       TEXT    NOT NULL,
  process              TEXT    NOT NULL,
  sender               TEXT    NOT NULL,  -- C1
  receiver             TEXT    NOT NULL,  -- C4
  c1_country           TEXT    NOT NULL,  -- ISO 3166 alpha-2, empty: unknown
  c4_country           TEXT    NOT NULL,
  PRIMARY KEY (partner_id, message_id)
);
CREATE INDEX peppol_exchanges_exchanged_at ON peppol_exchanges (exchanged_at);

-- migration 10: the answers a message-log row stands for. A row is one answer,
-- except a count row: past a client's limits (<limits max-log-rows-per-client>)
-- its answers of one outcome in a minute are one row, and `answers` says how
-- many. Counts of answers sum this column; counts of rows are what was written.
ALTER TABLE messages ADD COLUMN answers INTEGER NOT NULL DEFAULT 1;

-- migration 11: an invoice and a credit note numbered alike are two documents.
-- Several ERPs number credit notes in their invoice series; keyed by the
-- number alone, a credit note numbered as an earlier invoice was taken for an
-- older version of it and not booked. The key is now (partner_id,
-- invoice_number, credit_note), for the lines too (a column credit_note added
-- to invoice_lines); the versions of each apply among themselves. Same rows.
CREATE TABLE invoices_v11 (
  partner_id       TEXT    NOT NULL,
  invoice_number   TEXT    NOT NULL,
  credit_note      INTEGER NOT NULL DEFAULT 0,
  purpose          TEXT    NOT NULL,
  status           TEXT    NOT NULL CHECK (status IN ('active', 'cancelled')),
  document_date    TEXT    NOT NULL,
  order_number     TEXT,
  currency         TEXT,
  total_minor      INTEGER NOT NULL,
  tax_minor        INTEGER,
  line_total_minor INTEGER,
  source           TEXT    NOT NULL,
  versions         INTEGER NOT NULL DEFAULT 1,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (partner_id, invoice_number, credit_note)
);
INSERT INTO invoices_v11 (partner_id, invoice_number, credit_note, purpose, status, document_date, order_number, currency, total_minor, tax_minor, line_total_minor, source, versions, created_at, updated_at) SELECT partner_id, invoice_number, credit_note, purpose, status, document_date, order_number, currency, total_minor, tax_minor, line_total_minor, source, versions, created_at, updated_at FROM invoices;
CREATE TABLE invoice_lines_v11 (
  partner_id     TEXT    NOT NULL,
  invoice_number TEXT    NOT NULL,
  credit_note    INTEGER NOT NULL DEFAULT 0,
  position       INTEGER NOT NULL,
  line_number    INTEGER NOT NULL,
  item_id        TEXT,
  item_id_type   TEXT,
  quantity       TEXT    NOT NULL,
  unit           TEXT,
  unit_price     TEXT,
  amount_minor   INTEGER NOT NULL,
  PRIMARY KEY (partner_id, invoice_number, credit_note, position),
  FOREIGN KEY (partner_id, invoice_number, credit_note)
    REFERENCES invoices_v11 (partner_id, invoice_number, credit_note) ON DELETE CASCADE
) WITHOUT ROWID;
INSERT INTO invoice_lines_v11 (partner_id, invoice_number, credit_note, position, line_number, item_id, item_id_type, quantity, unit, unit_price, amount_minor) SELECT l.partner_id, l.invoice_number, i.credit_note, l.position, l.line_number, l.item_id, l.item_id_type, l.quantity, l.unit, l.unit_price, l.amount_minor FROM invoice_lines l JOIN invoices i ON i.partner_id = l.partner_id AND i.invoice_number = l.invoice_number;
DROP TABLE invoice_lines;
DROP TABLE invoices;
ALTER TABLE invoices_v11 RENAME TO invoices;
ALTER TABLE invoice_lines_v11 RENAME TO invoice_lines;
CREATE INDEX invoices_source ON invoices (partner_id, source);

-- migration 12: the back office receives the versions of one document in the
-- order they were booked. A document event's order_key names its document
-- (invoice:acme:INV-88301: kind, partner, number); a row is not due while an
-- earlier row of the same order_key is pending, in flight or failed (an
-- operator's retry or cancel releases what a failed one holds).
ALTER TABLE outbox ADD COLUMN order_key TEXT;
CREATE INDEX outbox_order ON outbox (order_key, id) WHERE order_key IS NOT NULL;
