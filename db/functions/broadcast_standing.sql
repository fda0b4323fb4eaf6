-- Everything a group broadcast's group-wide checks read, in one round trip: the group's size
-- and the account's broadcast limits (null: the platform's), the broadcasts that used a slot in
-- the 24 hours before p_now and when the oldest frees it, the balance, the LIVE sender's
-- standing (null in TEST mode), and the account's daily and fan-out counts with the part price
-- (send_counts with no single recipient). Only reads; the API decides.
CREATE OR REPLACE FUNCTION broadcast_standing(p_account text, p_mode text, p_group text,
                                              p_from text, p_body_sha256 text, p_now timestamptz)
RETURNS TABLE (members int, max_members int, per_day int, slots_used int, slot_frees_in int,
               balance_cents bigint, verified int, paused_until text, pause_reason text,
               number_status text, number_type text, verification text, own_daily_limit int,
               sent_last_day int, daily_frees_in int, fanout_recipients int, fanout_frees_in int,
               part_price_cents int)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  SELECT count(*)::int INTO members FROM contact_group_members gm WHERE gm.group_id = p_group;
  SELECT a.broadcast_max_members, a.broadcasts_per_day, a.balance_cents
  INTO max_members, per_day, balance_cents FROM accounts a WHERE a.id = p_account;
  SELECT count(*)::int,
         coalesce(ceil(extract(epoch FROM min(b.slot_at) + interval '1 day' - p_now)), 0)::int
  INTO slots_used, slot_frees_in
  FROM broadcasts b WHERE b.account_id = p_account AND b.mode = p_mode
  AND b.slot_at > p_now - interval '1 day';
  IF p_mode = 'LIVE' THEN
    SELECT s.verified, s.paused_until, s.pause_reason, s.number_status, s.number_type,
           s.verification
    INTO verified, paused_until, pause_reason, number_status, number_type, verification
    FROM live_sender_standing(p_account, p_from, p_now) s;
  END IF;
  SELECT n.own_daily_limit, n.sent_last_day, n.daily_frees_in, n.fanout_recipients,
         n.fanout_frees_in, n.part_price_cents
  INTO own_daily_limit, sent_last_day, daily_frees_in, fanout_recipients, fanout_frees_in,
       part_price_cents
  FROM send_counts(p_account, p_mode, '', p_body_sha256, p_now) n;
  RETURN NEXT;
END $$;
