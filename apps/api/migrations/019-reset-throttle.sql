-- "Forgot password" sends at most one reset mail per account per minute (issue 11). The minute is
-- claimed with one guarded UPDATE of this column in the request itself, so two requests at once
-- (on any process) cannot both pass the check: before, the check read the reset links, which the
-- mail sent in the background only wrote later.
ALTER TABLE app_user ADD COLUMN reset_mail_at timestamptz;
