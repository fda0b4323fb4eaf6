-- What the database knows of a destination: its cached line type (null when not cached or
-- older than p_cache_days at p_now) and whether it is undeliverable.
CREATE OR REPLACE FUNCTION known_destination(p_number text, p_cache_days int, p_failures int,
                                             p_days int, p_now timestamptz)
RETURNS TABLE (line_type text, undeliverable int)
LANGUAGE plpgsql STABLE ROWS 1 AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT (SELECT l.line_type FROM number_lookups l WHERE l.phone_number = p_number
          AND l.looked_up_at > p_now - make_interval(days => p_cache_days)),
         is_undeliverable(p_number, p_failures, p_days, p_now)::int;
END $$;
