-- The time zone a user chose for every time the portal shows (user info page); NULL: the browser's.
-- An IANA name, checked by the API (Intl); the length check keeps a stray value small.
ALTER TABLE app_user ADD COLUMN time_zone text CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64);
