-- The previous signing secret while it still signs (for a day after a rotation).
CREATE OR REPLACE FUNCTION webhook_previous_secret(w webhooks, p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN w.previous_secret_expires_at > p_at THEN w.previous_secret END
$$;
