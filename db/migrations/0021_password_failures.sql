-- Security (issue 34, item 4): passwords were limited only per client address, so 24 wrong
-- passwords from one address and the right one from the next gave a code. Wrong passwords are
-- now counted per account, by the email they were tried for (so an email no account has is
-- counted and answered alike), and after a few in a row the password is not checked at all
-- for a while (services/accounts/password_guard.h).
CREATE TABLE password_failures (
  subject        text PRIMARY KEY,  -- SHA-256 of the lower-cased email
  failures       int NOT NULL,      -- wrong passwords in a row
  last_failed_at timestamptz NOT NULL,
  blocked_until  timestamptz
);
