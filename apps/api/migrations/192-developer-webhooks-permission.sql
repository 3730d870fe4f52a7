-- Issue 50: developer:webhooks — manage webhook endpoints and read events through /v1 (a permission
-- an API key may carry; developer:manage stays administrators' own). Administrators hold every
-- permission: this one too.
UPDATE app_user SET permissions = array_append(permissions, 'developer:webhooks')
 WHERE user_admin AND NOT ('developer:webhooks' = ANY(permissions));
