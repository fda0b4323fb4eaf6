-- CASL: an implied consent lapses at its expiry (two years after a purchase, six months after
-- an inquiry; set when it is recorded). The one place the rule lives: consent_standing reads
-- with it and the consent check marks lapsed consents EXPIRED with it.
CREATE OR REPLACE FUNCTION implied_consent_lapsed(p_consent_type text, p_expires_at timestamptz,
                                                  p_now timestamptz)
RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_consent_type = 'IMPLIED' AND p_expires_at <= p_now
$$;
