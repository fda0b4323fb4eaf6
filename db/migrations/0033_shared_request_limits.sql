-- Request limits for the whole deployment (issue 52): each API instance kept its own, so with
-- N instances behind a balancer a customer had N times every limit. Each key's one time (when
-- its next request is due, domain/request_rate.h) now lives here, and every instance takes a
-- request's slot with one statement (db/functions/take_request_slot.sql);
-- API_REQUEST_LIMITS=process keeps them in each instance instead.
-- UNLOGGED: a limit is not worth a WAL record per request (the table is rewritten at the
-- request rate); after a crash PostgreSQL empties it, which gives every key its whole limit
-- once. No index but the key's: an update then stays on its page (HOT), and the prune that
-- drops keys whose time has passed (services/limits/shared_request_limiter.cpp) reads a table of
-- about one row per recently active account and address.
CREATE UNLOGGED TABLE request_rate_cells (
  key             text PRIMARY KEY,  -- "<limit>:<account id or address>"
  next_arrival_us bigint NOT NULL    -- microseconds since the epoch
);
