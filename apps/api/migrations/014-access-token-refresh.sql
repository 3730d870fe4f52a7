-- Issue 10, finding 8: an access token ends when its refresh token is used (after the two-tab
-- grace window), not 15 minutes later. Each access token remembers the refresh token issued with
-- it; tokens issued before this migration have none and keep their 15-minute lifetime.
ALTER TABLE access_token ADD COLUMN refresh_hash char(64);
CREATE INDEX access_token_refresh_idx ON access_token(refresh_hash);
