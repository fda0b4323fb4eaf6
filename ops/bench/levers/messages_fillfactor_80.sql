-- pipeline-cost --alternate: a fifth of each new page of messages left free, so that the
-- updates of a message that change no indexed column (the hand-off's claim) can be HOT.
ALTER TABLE messages SET (fillfactor = 80);
