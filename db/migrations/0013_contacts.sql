-- Contacts, contact groups and allow/deny contact lists (spec Contact, ContactGroup,
-- ContactList). They belong to the account and are shared by its TEST and LIVE keys. A phone
-- number or an email names one contact per account; a group's name and a list's name are unique
-- per account, compared without case. A list entry names exactly one of a number, a contact or
-- a group (a group entry is expanded to its members when a send is checked).
CREATE TABLE contacts (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id),
  phone_number text,
  email        text,
  name         text,
  notes        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (phone_number IS NOT NULL OR email IS NOT NULL),
  CHECK (email IS NULL OR email = lower(email))
);
CREATE UNIQUE INDEX contacts_phone_per_account ON contacts (account_id, phone_number)
  WHERE phone_number IS NOT NULL;
CREATE UNIQUE INDEX contacts_email_per_account ON contacts (account_id, email)
  WHERE email IS NOT NULL;
CREATE INDEX contacts_newest ON contacts (account_id, created_at DESC, id DESC);

CREATE TABLE contact_groups (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id),
  name        text NOT NULL,
  description text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contact_groups_name_per_account ON contact_groups (account_id, lower(name));
CREATE INDEX contact_groups_newest ON contact_groups (account_id, created_at DESC, id DESC);

CREATE TABLE contact_group_members (
  group_id   text NOT NULL REFERENCES contact_groups (id) ON DELETE CASCADE,
  contact_id text NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  added_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, contact_id)
);
CREATE INDEX contact_group_members_contact ON contact_group_members (contact_id);

CREATE TABLE contact_lists (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id),
  name        text NOT NULL,
  description text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX contact_lists_name_per_account ON contact_lists (account_id, lower(name));

CREATE TABLE contact_list_entries (
  id               text PRIMARY KEY,
  list_id          text NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
  phone_number     text,
  contact_id       text REFERENCES contacts (id) ON DELETE CASCADE,
  contact_group_id text REFERENCES contact_groups (id) ON DELETE CASCADE,
  added_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(phone_number, contact_id, contact_group_id) = 1)
);
CREATE UNIQUE INDEX contact_list_entries_number ON contact_list_entries (list_id, phone_number)
  WHERE phone_number IS NOT NULL;
CREATE UNIQUE INDEX contact_list_entries_contact ON contact_list_entries (list_id, contact_id)
  WHERE contact_id IS NOT NULL;
CREATE UNIQUE INDEX contact_list_entries_group ON contact_list_entries (list_id, contact_group_id)
  WHERE contact_group_id IS NOT NULL;
CREATE INDEX contact_list_entries_contact_ref ON contact_list_entries (contact_id)
  WHERE contact_id IS NOT NULL;
CREATE INDEX contact_list_entries_group_ref ON contact_list_entries (contact_group_id)
  WHERE contact_group_id IS NOT NULL;

-- A key's lists are the account's lists; a list a key uses cannot be deleted from under it.
ALTER TABLE api_keys
  ADD CONSTRAINT api_keys_allow_list FOREIGN KEY (allow_list_id) REFERENCES contact_lists (id),
  ADD CONSTRAINT api_keys_deny_list FOREIGN KEY (deny_list_id) REFERENCES contact_lists (id);

-- Staff overrides of the broadcast limits (smsgw-admin account set-broadcast-limits); null: the
-- platform's (BROADCAST_MAX_MEMBERS, BROADCASTS_PER_DAY).
ALTER TABLE accounts
  ADD COLUMN broadcast_max_members integer CHECK (broadcast_max_members > 0),
  ADD COLUMN broadcasts_per_day integer CHECK (broadcasts_per_day >= 0);

-- A broadcast to a contact group (POST /v1/contact-groups/{id}/messages). With an
-- Idempotency-Key it is found again by (account, mode, key): `response` holds the 207 it answered
-- and `slot_at` when it last used one of the account's daily broadcast slots (a retry after 24 h
-- uses a new one). `broadcast_recipients` names the member numbers it messaged and their
-- messages: a retry never messages a number twice, whatever interrupted the first attempt.
CREATE TABLE broadcasts (
  id              text PRIMARY KEY,
  account_id      text NOT NULL REFERENCES accounts (id),
  mode            text NOT NULL CHECK (mode IN ('LIVE', 'TEST')),
  group_id        text NOT NULL,
  idempotency_key text,
  fingerprint     text NOT NULL,
  slot_at         timestamptz NOT NULL,
  response        jsonb,
  answered_at     timestamptz,
  created_at      timestamptz NOT NULL
);
CREATE UNIQUE INDEX broadcasts_idempotency_key ON broadcasts (account_id, mode, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX broadcasts_slots ON broadcasts (account_id, mode, slot_at);

CREATE TABLE broadcast_recipients (
  broadcast_id text NOT NULL REFERENCES broadcasts (id),
  to_number    text NOT NULL,
  message_id   text NOT NULL REFERENCES messages (id),
  PRIMARY KEY (broadcast_id, to_number)
);

-- A subscriber's consent records of every status, latest first: what a refusal's reason is read
-- from (CONSENT_EXPIRED or NO_CONSENT), for each member of a broadcast.
CREATE INDEX consents_number ON consents (account_id, mode, phone_number);

-- New signatures: the caller carries its lists, and a send reads whether they hold the recipient.
DROP FUNCTION IF EXISTS api_key_caller(text, timestamptz);
DROP FUNCTION IF EXISTS send_standing(text, text, text, text, timestamptz, text, int, int, int);
