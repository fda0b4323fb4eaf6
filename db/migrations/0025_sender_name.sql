-- Security (issue 49, item 6): the account's name signed the texts sent to third parties
-- (automatic replies, confirmations) whatever it held. Texts are now signed with a sender
-- name the owner sets, checked as a brand, or with the account's name only when it reads as
-- one (domain/casl.h textSignature); api_account shows it (db/functions/api_account.sql).
ALTER TABLE accounts ADD COLUMN sender_name text;
