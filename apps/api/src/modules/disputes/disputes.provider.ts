import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Code } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { MAX_DISPUTE_BATCH, receiveDisputeBatch } from './disputes.feed';

const RowResult = z.object({
  index: z.number(),
  gwDisputeId: z.string().nullable(),
  status: z.enum(['accepted', 'duplicate', 'rejected']),
  code: z.number(),
  msg: z.string(),
  field: z.string().optional(),
  disputeId: z.number().optional(),
  state: z.string().optional(),
});

/**
 * The provider face's dispute notifications (issue 48): `POST /provider/v1/disputes`, signed like
 * the transaction feed (the face checks the signature before anything is parsed).
 */
export function disputeProviderRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/provider/v1/disputes',
    {
      bodyLimit: 2 * 1024 * 1024,
      schema: {
        tags: ['X-HIDDEN'],
        summary: `Dispute notifications (new, status change, outcome): a batch of 1–${MAX_DISPUTE_BATCH}; each row answered accepted / duplicate / rejected`,
        description:
          "Idempotent by gwDisputeId: the same content again answers duplicate; a later status moves the dispute (needs_response → under_review → won | lost, accepted, expired) — a move the state machine does not allow is rejected with code 409, as is other content (purchase, kind, amount, currency, reason) under a known id. gwGTransId names the successful purchase of one of the connection's merchants (else 404). amount is a decimal of the purchase's currency; deadline and openedAt ISO 8601 instants with offset. A chargeback or pre-arbitration debits the merchant on the day it arrives (openedAt, default now), a won one credits back (docs/disputes.md).",
        body: z.strictObject({ disputes: z.array(z.unknown()).min(1).max(MAX_DISPUTE_BATCH) }),
        response: {
          200: z.object({
            code: z.number(),
            msg: z.string(),
            data: z.object({ results: z.array(RowResult), accepted: z.number(), duplicate: z.number(), rejected: z.number() }),
          }),
        },
      },
    },
    async (req) => {
      const g = req.gateway;
      if (!g) throw new AppError(Code.NOT_LOGGED_IN, 'gwUnauthorized', { reason: 'not signed' }, 401);
      const data = await receiveDisputeBatch(deps.db, req.body.disputes, {
        connection: { id: g.id, merchants: g.merchants },
        by: `gateway:${g.id}`,
        platformTz: deps.config.platformTz,
        now: deps.clock.now(),
        lang: req.lang,
      });
      return { code: Code.OK, msg: t(req.lang, 'success'), data };
    },
  );
}
