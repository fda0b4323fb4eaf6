-- The carrier (issue 36, item 3): Telnyx names a phone number by its own id, and releases it
-- by that id (DELETE /v2/phone_numbers/{id}). Kept when the number is bought; NULL for numbers
-- bought before, which the release finds by their E.164 number first. Orders need no column:
-- each is made under the purchase's id as its customer reference, which finds it again.
ALTER TABLE phone_numbers ADD COLUMN carrier_number_id text;
