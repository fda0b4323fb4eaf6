-- What a group broadcast's per-member checks read, for every member with a number, in one
-- round trip and in the group's order (oldest membership first): the message this broadcast
-- already gave the number (a retry never messages it again), where the key's lists place it
-- (null lists: not read), the LIVE destination's cached line type and failures, the consent
-- standing (consent_standing) and whether the latest consent record has expired, the
-- recipient's hourly and daily counts (recipient_window), whether this body already reached it
-- in 24 hours (fan-out), and, from a toll-free number, whether it confirmed a double opt-in.
-- Only reads; the API decides member by member. The functions it joins per member say they
-- return one row (ROWS 1): estimated at the default 1,000, they made the plan look a million
-- times dearer than it is, and PostgreSQL spent half a second compiling it (JIT) on every call.
-- Planned once per connection for any account, as send_counts is (plan_cache_mode: a plan made
-- for one little-known account reads all its day's messages to count one recipient's).
CREATE OR REPLACE FUNCTION broadcast_member_standing(
  p_broadcast text, p_group text, p_account text, p_mode text, p_from text, p_toll_free boolean,
  p_body_sha256 text, p_now timestamptz, p_cache_days int, p_failures int, p_failure_days int,
  p_allow_list text, p_deny_list text)
RETURNS TABLE (to_number text, reached_message_id text, reached_status text,
               reached_error_code text, on_allow_list int, on_deny_list int, line_type text,
               undeliverable int, opted_out int, consent_type text, lapsed int,
               latest_expired int, recipient_last_hour int, recipient_last_day int,
               recipient_hour_frees_in int, recipient_day_frees_in int, fanned int,
               double_opt_in int)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  -- The body's recipients, read once: probing the body's messages for each member would read
  -- them members times over.
  WITH fanned AS (
    SELECT DISTINCT f.to_number FROM messages f WHERE f.account_id = p_account
    AND f.mode = p_mode AND f.body_sha256 = p_body_sha256
    AND f.created_at > p_now - interval '1 day')
  SELECT c.phone_number, r.message_id, rm.status, rm.error_code,
         (p_allow_list IS NOT NULL AND list_holds(p_allow_list, p_account, c.phone_number))::int,
         (p_deny_list IS NOT NULL AND list_holds(p_deny_list, p_account, c.phone_number))::int,
         d.line_type, d.undeliverable, cs.opted_out, cs.consent_type, cs.lapsed,
         coalesce((SELECT x.status = 'EXPIRED' OR implied_consent_lapsed(x.consent_type,
                            x.expires_at, p_now) AND x.status = 'ACTIVE'
                   FROM consents x WHERE x.account_id = p_account AND x.mode = p_mode
                   AND x.phone_number = c.phone_number
                   ORDER BY COALESCE(x.revoked_at, x.expires_at, x.granted_at) DESC LIMIT 1),
                  false)::int,
         w.last_hour, w.last_day, w.hour_frees_in, w.day_frees_in,
         (fan.to_number IS NOT NULL)::int,
         (p_toll_free AND EXISTS (SELECT 1 FROM opt_in_confirmations o
                                  WHERE o.account_id = p_account AND o.mode = p_mode
                                  AND o.from_number = p_from AND o.to_number = c.phone_number
                                  AND o.status = 'CONFIRMED'))::int
  FROM contact_group_members gm
  JOIN contacts c ON c.id = gm.contact_id AND c.phone_number IS NOT NULL
  LEFT JOIN broadcast_recipients r ON r.broadcast_id = p_broadcast
                                   AND r.to_number = c.phone_number
  LEFT JOIN messages rm ON rm.id = r.message_id
  LEFT JOIN fanned fan ON fan.to_number = c.phone_number
  LEFT JOIN LATERAL known_destination(c.phone_number, p_cache_days, p_failures, p_failure_days,
                                      p_now) d ON p_mode = 'LIVE'
  CROSS JOIN LATERAL consent_standing(p_account, p_mode, c.phone_number, p_from, p_now) cs
  CROSS JOIN LATERAL recipient_window(p_account, p_mode, c.phone_number, p_now) w
  WHERE gm.group_id = p_group
  ORDER BY gm.added_at, c.id;
END $$;
