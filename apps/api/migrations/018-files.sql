-- Files download (issue 14): files the provider attaches to a notice. Shown on the notice's detail
-- page and listed in /files beside the merchant documents (010's merchant_document).
CREATE TABLE notice_attachment (
  id           bigserial PRIMARY KEY,
  notice_id    int NOT NULL REFERENCES notice(id) ON DELETE CASCADE,
  file_name    text NOT NULL,
  format       text NOT NULL CHECK (format IN ('pdf', 'csv', 'png', 'jpg')),
  file_path    text NOT NULL,                  -- relative to DATA_DIR (files/notice/…)
  size_bytes   int NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notice_attachment_notice_idx ON notice_attachment (notice_id);
