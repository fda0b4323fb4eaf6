-- Phone numbers: purchases, the numbers themselves with their rent schedule, toll-free
-- verification applications, allowance requests, and the account document's number fields.

-- One purchase per POST /v1/phone-numbers that got as far as the charge. The charge commits
-- with the PENDING row before the carrier is asked; the outcome (the number, or the refund)
-- commits with COMPLETED or FAILED. A PENDING row a crash left behind is settled by the
-- rent-billing worker's pass, which asks the carrier whether it holds the number.
CREATE TABLE number_purchases (
  id                   text PRIMARY KEY,
  account_id           text NOT NULL REFERENCES accounts (id),
  phone_number         text NOT NULL,
  number_type          text NOT NULL CHECK (number_type IN ('local', 'toll_free')),
  monthly_cost_cents   integer NOT NULL CHECK (monthly_cost_cents >= 0),
  activation_fee_cents integer NOT NULL CHECK (activation_fee_cents >= 0),
  status               text NOT NULL CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED')),
  failure_reason       text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  settled_at           timestamptz
);
-- At most one purchase in flight per account: the second answers 409 PURCHASE_IN_PROGRESS.
CREATE UNIQUE INDEX number_purchases_one_in_flight ON number_purchases (account_id)
  WHERE status = 'PENDING';

CREATE TABLE phone_numbers (
  id                    text PRIMARY KEY,
  account_id            text NOT NULL REFERENCES accounts (id),
  purchase_id           text NOT NULL UNIQUE REFERENCES number_purchases (id),
  phone_number          text NOT NULL,
  area_code             text NOT NULL,
  region                text,
  capabilities          jsonb NOT NULL,
  number_type           text NOT NULL CHECK (number_type IN ('local', 'toll_free')),
  status                text NOT NULL
                        CHECK (status IN ('ACTIVE', 'SUSPENDED', 'RELEASING', 'RELEASED')),
  monthly_cost_cents    integer NOT NULL CHECK (monthly_cost_cents >= 0),
  provisioned_at        timestamptz NOT NULL,
  -- Rent: periods run from the provisioning anniversary (domain/rent_period.h). Period 1 was
  -- paid with the purchase; next_rent_due_at is when period rent_periods_paid + 1 starts.
  rent_periods_paid     integer NOT NULL DEFAULT 1 CHECK (rent_periods_paid >= 1),
  next_rent_due_at      timestamptz NOT NULL,
  billing_enqueued_at   timestamptz,  -- the billing pass published this number's due record
  suspended_at          timestamptz,
  grace_ends_at         timestamptz,
  -- Release: RELEASING is written before the carrier is asked, with what to go back to if it
  -- refuses; a RELEASING row a crash left behind is retried by the billing pass.
  status_before_release text CHECK (status_before_release IN ('ACTIVE', 'SUSPENDED')),
  release_reason        text
                        CHECK (release_reason IN ('customer_released', 'admin_released',
                                                  'suspended_grace_expired')),
  release_requested_at  timestamptz,
  released_at           timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  CHECK (status <> 'SUSPENDED' OR grace_ends_at IS NOT NULL)
);
-- A number is held by one account at a time; once released it may be bought again.
CREATE UNIQUE INDEX phone_numbers_held ON phone_numbers (phone_number) WHERE status <> 'RELEASED';
CREATE INDEX phone_numbers_account ON phone_numbers (account_id, provisioned_at DESC);
CREATE INDEX phone_numbers_rent_due ON phone_numbers (next_rent_due_at) WHERE status = 'ACTIVE';
CREATE INDEX phone_numbers_grace ON phone_numbers (grace_ends_at) WHERE status = 'SUSPENDED';
CREATE INDEX phone_numbers_releasing ON phone_numbers (release_requested_at)
  WHERE status = 'RELEASING';

-- Toll-free verification applications; the newest one not cancelled is the number's.
-- Staff set the status (smsgw-admin); a toll-free number sends once it is APPROVED.
CREATE TABLE toll_free_verifications (
  id              text PRIMARY KEY,
  phone_number_id text NOT NULL REFERENCES phone_numbers (id),
  status          text NOT NULL
                  CHECK (status IN ('DRAFT', 'AWAITING_PAYMENT', 'IN_REVIEW', 'CHANGES_REQUESTED',
                                    'SUBMITTED', 'APPROVED', 'REJECTED', 'DECLINED')),
  cancelled_at    timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX toll_free_verifications_number
  ON toll_free_verifications (phone_number_id, created_at DESC);

CREATE TABLE allowance_requests (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id),
  requested_limit  integer NOT NULL CHECK (requested_limit > 0),
  limit_at_request integer NOT NULL,
  held_at_request  integer NOT NULL,
  reason           text NOT NULL,
  status           text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'DENIED')),
  granted_limit    integer,
  staff_note       text,
  decided_at       timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX allowance_requests_one_pending ON allowance_requests (account_id)
  WHERE status = 'PENDING';
CREATE INDEX allowance_requests_account ON allowance_requests (account_id, created_at DESC);

CREATE FUNCTION api_phone_number(p phone_numbers) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', p.id, 'phone_number', p.phone_number, 'area_code', p.area_code, 'region', p.region,
    'capabilities', p.capabilities, 'status', p.status,
    'monthly_cost_cents', p.monthly_cost_cents, 'provisioned_at', iso_ts(p.provisioned_at),
    'released_at', iso_ts(p.released_at), 'number_type', p.number_type,
    'toll_free_verification',
      (SELECT jsonb_build_object('id', v.id, 'status', v.status)
         FROM toll_free_verifications v
        WHERE v.phone_number_id = p.id AND v.cancelled_at IS NULL
        ORDER BY v.created_at DESC, v.id DESC LIMIT 1))
$$;

CREATE FUNCTION api_allowance_request(r allowance_requests) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', r.id, 'requested_limit', r.requested_limit, 'limit_at_request', r.limit_at_request,
    'held_at_request', r.held_at_request, 'reason', r.reason, 'status', r.status,
    'granted_limit', r.granted_limit, 'staff_note', r.staff_note,
    'decided_at', iso_ts(r.decided_at), 'created_at', iso_ts(r.created_at))
$$;

-- AccountDocument with the number fields: rent and the limit count ACTIVE and SUSPENDED.
CREATE OR REPLACE FUNCTION api_account_document(a accounts) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  WITH held AS (
    SELECT count(*) AS used, COALESCE(sum(p.monthly_cost_cents), 0) AS rent
      FROM phone_numbers p
     WHERE p.account_id = a.id AND p.status IN ('ACTIVE', 'SUSPENDED'))
  SELECT jsonb_build_object(
    'account', api_account(a) || jsonb_build_object(
      'monthly_rent_cents', held.rent,
      'low_balance', a.balance_cents < held.rent,
      'phone_number_limit', a.phone_number_limit,
      'phone_numbers_used', held.used,
      'inbound_sms_daily_cap', a.inbound_sms_daily_cap,
      'inbound_sms_received_24h',
        (SELECT count(*) FROM messages m WHERE m.account_id = a.id AND m.direction = 'INBOUND'
           AND m.mode = 'LIVE' AND m.created_at > now() - interval '24 hours')),
    'api_keys', COALESCE(
      (SELECT jsonb_agg(api_key_resource(k) ORDER BY k.created_at) FROM api_keys k
        WHERE k.account_id = a.id AND k.kind = 'USER' AND k.revoked_at IS NULL), '[]'::jsonb),
    'features', jsonb_build_object('email', false))
  FROM held
$$;
