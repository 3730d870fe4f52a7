-- Issue 13: global search and saved views (decision 022).
--
-- Global search needs no new index: every id it looks up exactly is already the head of one —
--   txn.gw_trans_id (UNIQUE), txn (mer_id, order_no) (UNIQUE), txn_channel_order_idx (channel_order_no),
--   txn.id (primary key: a refund's id), pay_by_link_order.order_no (UNIQUE; in-store orders too),
--   pay_by_link_order_recon_idx (mer_id, recon_id: the invoice id).
-- Each branch of the search is an index probe (one per merchant of the scope for the composite
-- ones), whatever the table's size.

-- A user's named filters of one screen: `query` is the screen's URL query string (validated against
-- the screen's keys). `team_id` is the root merchant (group, or the independent merchant) of the
-- owner when saved: a shared view is visible to that team's users who hold the screen's permission.
CREATE TABLE saved_view (
  id          bigserial PRIMARY KEY,
  user_id     int NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  mer_id      varchar(15) NOT NULL REFERENCES merchant(mer_id),
  team_id     varchar(15) NOT NULL REFERENCES merchant(mer_id),
  screen      text NOT NULL,
  name        text NOT NULL,
  query       text NOT NULL,
  shared      boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, screen, name)
);
CREATE INDEX saved_view_shared_idx ON saved_view (team_id, screen) WHERE shared;

-- A user's default view of a screen (their own, or one shared with them).
CREATE TABLE saved_view_default (
  user_id     int NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
  screen      text NOT NULL,
  view_id     bigint NOT NULL REFERENCES saved_view(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, screen)
);
CREATE INDEX saved_view_default_view_idx ON saved_view_default (view_id);
