-- Issue 47: the delivery log tells a merchant a generic reason for an attempt that got no HTTP
-- answer (webhook_attempt.reason); the detail — the resolver's answer, the network error — stays in
-- webhook_attempt.error for operators and is no longer shown to merchants.
ALTER TABLE webhook_attempt ADD COLUMN reason text CHECK (reason IN ('address', 'https', 'timeout', 'tls', 'connection'));
UPDATE webhook_attempt
   SET reason = CASE
         WHEN error = 'https only in production' THEN 'https'
         WHEN outcome = 'refused' OR error LIKE '%no address' OR error LIKE '%ENOTFOUND%' OR error LIKE '%EAI_AGAIN%' THEN 'address'
         WHEN error LIKE 'no answer within%' THEN 'timeout'
         ELSE 'connection'
       END
 WHERE error IS NOT NULL;
