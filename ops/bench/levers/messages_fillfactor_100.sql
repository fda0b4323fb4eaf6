-- pipeline-cost --alternate: the messages table packed full (PostgreSQL's default), so an
-- update of a message usually finds no room on its page and cannot be HOT.
ALTER TABLE messages SET (fillfactor = 100);
