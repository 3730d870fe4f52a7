import type { FastifyInstance, FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Code, CURRENCY_EXPONENT, TXN_TYPES, textInput, toMinor } from '@portal/contract';
import { GW_TRANS_ID_RE, RESPONSE_RE } from '../../modules/payments/ingest.validate';
import { addDays, isDate } from '../../modules/payments/time';
import { MAX_RATE_ROWS, listRates, parseRateRow, receiveRates } from '../../modules/payments/rates.service';
import { recordControlTotals } from '../../modules/gateway/recon.service';
import type { Deps } from '../../plugins/context';
import { AppError } from '../../lib/errors';
import { t } from '../../lib/messages';
import { portalDocTransform } from '../../lib/openapi';
import { HEADERS, authenticate, type Connection } from '../../modules/gateway/gateway.service';
import { registerProviderDocs } from './provider.docs';
import { faceRoutes, type ModuleManifest } from '../../modules/contract';
import { FeedRowSchema, MAX_BATCH, receiveBatch, reportStatus } from '../../modules/gateway/feed.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes of a provider request's JSON body (what the signature covers). */
    rawBody?: string;
    /** The gateway connection that signed the request (provider face only). */
    gateway?: Connection & { keyId: string };
  }
}

const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), msg: z.string(), data });
const RowResult = z.object({
  index: z.number(),
  gwGTransId: z.string().nullable(),
  status: z.enum(['accepted', 'duplicate', 'rejected']),
  code: z.number(),
  msg: z.string(),
  field: z.string().optional(),
  statusChanged: z.boolean().optional(),
});
const BatchAnswer = z.object({ results: z.array(RowResult), accepted: z.number(), duplicate: z.number(), rejected: z.number() });
const StatusAnswer = z.object({ gwGTransId: z.string(), gwResponse: z.string(), respMsg: z.string().nullable(), changed: z.boolean() });

const SIGNING = `Every request is signed. Headers: \`${HEADERS.keyId}\` (the key id), \`${HEADERS.timestamp}\` (Unix seconds), \`${HEADERS.signature}\` = hex HMAC-SHA256, with the key's secret, of \`timestamp.METHOD.path.body\` (path with its query string as sent, body byte for byte; empty for none). A timestamp more than 5 minutes away, a signature seen before, an unknown or revoked key → 401. A server without a usable PROVIDER_KEY_ENCRYPTION_KEY (it seals the signing secrets) → 503 with code 503 and the reason: retry later. Answers use the envelope {code,msg,data}. See docs/integration.md.`;

/**
 * The provider face (/provider/v1, issue 25): gateway connections report transactions. Its own
 * OpenAPI document (/api/provider/docs) — a second @fastify/swagger in this encapsulated context;
 * the routes carry the merchant document's hidden tag so they stay out of /api/docs. Its own
 * authentication (signed requests) in preValidation: after the raw body is read, before any input
 * rule is applied, so an unsigned caller learns nothing about the input.
 */
export async function providerFace(app: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[] = []): Promise<void> {
  await app.register(async (f) => {
    // The swagger UI's pages are under /api/: public for the merchant auth hook.
    f.addHook('onRoute', (r) => {
      if (r.url.startsWith('/api/provider/docs')) r.config = { ...r.config, auth: 'public' };
    });
    await f.register(swagger, {
      openapi: {
        info: { title: 'Merchant portal — provider API', version: '1.0.0', description: SIGNING, license: { name: 'Proprietary', url: `${deps.config.publicUrl}/api/provider/docs` } },
        servers: [{ url: deps.config.publicUrl, description: 'This portal' }],
        components: {
          securitySchemes: {
            keyId: { type: 'apiKey', in: 'header', name: HEADERS.keyId },
            timestamp: { type: 'apiKey', in: 'header', name: HEADERS.timestamp },
            signature: { type: 'apiKey', in: 'header', name: HEADERS.signature },
          },
        },
        security: [{ keyId: [], timestamp: [], signature: [] }],
      },
      hiddenTag: 'X-PROVIDER-HIDDEN',
      // Issue 46: operationIds, the error answers and OpenAPI 3.0 nullables as /api/docs (lib/openapi.ts).
      transform: portalDocTransform(
        (arg: Parameters<typeof jsonSchemaTransform>[0]) => {
          const out = jsonSchemaTransform(arg);
          return { ...out, schema: { ...out.schema, tags: ['provider'] } };
        },
        {
          unauthenticated: (_route, url) =>
            url.startsWith('/provider/') ? 'Not signed, or the signature refused: a missing header, a stale timestamp, an unknown or revoked key, a replay (code -1)' : null,
          forbidden: () => null,
        },
      ),
    });
    // Its document follows API_DOCS (issue 47): an operator or a signed request when 'auth'.
    await registerProviderDocs(f, deps);

    // The signature covers the body byte for byte: keep it as received, then parse.
    f.removeContentTypeParser('application/json');
    f.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 8 * 1024 * 1024 }, (req, body, done) => {
      (req as FastifyRequest).rawBody = body as string;
      try {
        done(null, body === '' ? undefined : JSON.parse(body as string));
      } catch {
        done(new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'body is not JSON' }, 400));
      }
    });
    f.addHook('preValidation', async (req) => {
      if (!req.url.startsWith('/provider/')) return;
      req.gateway = await authenticate(
        deps.db,
        deps.config,
        {
          keyId: req.headers[HEADERS.keyId],
          timestamp: req.headers[HEADERS.timestamp],
          signature: req.headers[HEADERS.signature],
          method: req.method,
          path: req.url,
          body: req.rawBody ?? '',
        },
        deps.clock.now(),
      );
    });

    const r = f.withTypeProvider<ZodTypeProvider>();
    const tags = ['X-HIDDEN'];
    const conn = (req: FastifyRequest) => {
      if (!req.gateway) throw new AppError(Code.NOT_LOGGED_IN, 'gwUnauthorized', { reason: 'not signed' }, 401);
      return req.gateway;
    };

    r.post(
      '/provider/v1/transactions',
      {
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          tags,
          summary: `A batch of 1–${MAX_BATCH} transactions; each row answered accepted / duplicate / rejected`,
          description:
            'Idempotent by gwGTransId: the same id with the same content answers duplicate; with other content the row is rejected with code 409. A row for a merchant the connection may not report for is rejected with code 403. Row fields: see the FeedRow schema in docs/integration.md.',
          body: z.strictObject({ transactions: z.array(z.unknown()).min(1).max(MAX_BATCH) }),
          response: { 200: envelope(BatchAnswer) },
        },
      },
      async (req) => {
        const data = await receiveBatch(deps.db, conn(req), req.body.transactions, {
          platformTz: deps.config.platformTz,
          now: deps.clock.now(),
          window: deps.config.feedWindow,
          lang: req.lang,
          source: 'gateway',
        });
        return { code: Code.OK, msg: t(req.lang, 'success'), data };
      },
    );

    r.post(
      '/provider/v1/transactions/:gwTransId/status',
      {
        schema: {
          tags,
          summary: 'The final result of a processing transaction (late results, refund outcomes); idempotent',
          // Issue 47: the id and the texts parsed strictly (a NUL in the path reached the database: 500).
          params: z.strictObject({ gwTransId: z.string().regex(GW_TRANS_ID_RE, 'a gateway transaction id: letters, digits, _ . : -, at most 64') }),
          body: z.strictObject({
            gwResponse: z.string().regex(RESPONSE_RE, 'a result code: 1–8 letters or digits'),
            respMsg: textInput(255, { trim: false }).nullish(),
          }),
          response: { 200: envelope(StatusAnswer) },
        },
      },
      async (req) => {
        const out = await reportStatus(deps.db, conn(req), req.params.gwTransId, req.body);
        return { code: Code.OK, msg: t(req.lang, 'success'), data: { gwGTransId: out.gwTransId, gwResponse: out.gwResponse, respMsg: out.respMsg, changed: out.changed } };
      },
    );
    r.post(
      '/provider/v1/control-totals',
      {
        schema: {
          tags,
          summary: "A day's control totals: count and signed sum of the successful transactions per currency and type (replaces that day's)",
          body: z.strictObject({
            date: z.string().refine(isDate, 'a date YYYY-MM-DD'),
            totals: z.array(z.strictObject({ gwCurrency: z.string().max(3), gwTranType: z.string().max(16), count: z.number().int().min(0).max(1e9), sum: z.string().max(32) })).max(500),
          }),
          response: { 200: envelope(z.object({ date: z.string(), totals: z.number() })) },
        },
      },
      async (req) => {
        const c = conn(req);
        const totals = req.body.totals.map((x, i) => {
          if (!(x.gwCurrency in CURRENCY_EXPONENT)) throw new AppError(Code.BAD_REQUEST, 'payCurrencyUnknown', { currency: x.gwCurrency }, 400, { field: `totals.${i}.gwCurrency` });
          if (!(TXN_TYPES as readonly string[]).includes(x.gwTranType))
            throw new AppError(Code.BAD_REQUEST, 'payTranTypeInvalid', { tranType: x.gwTranType }, 400, { field: `totals.${i}.gwTranType` });
          let amount: number;
          try {
            amount = toMinor(x.sum, x.gwCurrency);
          } catch (e) {
            throw new AppError(Code.BAD_REQUEST, 'gwRowInvalid', { field: `totals.${i}.sum`, detail: (e as Error).message }, 400);
          }
          return { currency: x.gwCurrency, tranType: x.gwTranType, count: x.count, amount };
        });
        const keys = new Set(totals.map((x) => `${x.currency}|${x.tranType}`));
        if (keys.size !== totals.length) throw new AppError(Code.BAD_REQUEST, 'gwRowInvalid', { field: 'totals', detail: 'one entry per currency and type' }, 400);
        await recordControlTotals(deps.db, c.id, req.body.date, totals);
        return { code: Code.OK, msg: t(req.lang, 'success'), data: { date: req.body.date, totals: totals.length } };
      },
    );
    // ——— Exchange rates (issue 46, docs/integration.md "Exchange rates").
    const RateResult = z.object({
      index: z.number(),
      date: z.string().nullable(),
      from: z.string().nullable(),
      to: z.string().nullable(),
      status: z.enum(['created', 'corrected', 'unchanged', 'rejected']),
      code: z.number(),
      msg: z.string(),
      field: z.string().optional(),
      entryId: z.number().optional().describe('the rate version now in force for the day and pair'),
      previousRate: z.string().optional(),
      settledWithPrevious: z.number().optional().describe('a correction: settled transactions that keep the earlier rate'),
    });
    r.post(
      '/provider/v1/fx-rates',
      {
        schema: {
          tags,
          summary: `Exchange rates per currency pair and day: 1–${MAX_RATE_ROWS} rows {date, from, to, rate, correction?}, each answered created / corrected / unchanged / rejected`,
          description:
            'The rate of one unit of `from` in `to` (major units) for a day of the platform zone (up to tomorrow), as a decimal string (≤ 12 digits before and after the point). Idempotent by content: the same day, pair and rate answers unchanged. Another rate for a day and pair that has one is rejected (409) unless the row says `"correction": true`; a correction is a new version (the history keeps every one) and never changes settled money — transactions already settled keep the rate they were converted with, counted in `settledWithPrevious`. The settlement run of date D converts with the rate in force on D (D\'s, else the latest of the 31 days before).',
          body: z.strictObject({ rates: z.array(z.unknown()).min(1).max(MAX_RATE_ROWS) }),
          response: { 200: envelope(z.object({ results: z.array(RateResult), created: z.number(), corrected: z.number(), unchanged: z.number(), rejected: z.number() })) },
        },
      },
      async (req) => {
        const c = conn(req);
        const o = { now: deps.clock.now(), platformTz: deps.config.platformTz };
        const rows = req.body.rates.map((raw) => {
          try {
            return parseRateRow(raw, o);
          } catch (e) {
            if (e instanceof AppError) return e;
            throw e;
          }
        });
        const data = await receiveRates(deps.db, rows, { source: 'api', ref: `connection:${c.id} key:${c.keyId}`, actor: { username: `gateway:${c.id}` }, lang: req.lang });
        return { code: Code.OK, msg: t(req.lang, 'success'), data };
      },
    );
    r.get(
      '/provider/v1/fx-rates',
      {
        schema: {
          tags,
          summary: 'The rates in force stored for the days from–to (at most 92 days), newest first: rate, version, where it came from, how many versions and settled transactions',
          querystring: z.strictObject({ from: z.string().refine(isDate, 'a date YYYY-MM-DD'), to: z.string().refine(isDate, 'a date YYYY-MM-DD') }),
          response: {
            200: envelope(
              z.array(
                z.object({
                  date: z.string(),
                  from: z.string(),
                  to: z.string(),
                  rate: z.string(),
                  entryId: z.number(),
                  source: z.string(),
                  sourceRef: z.string().nullable(),
                  versions: z.number(),
                  settledCount: z.number(),
                }),
              ),
            ),
          },
        },
      },
      async (req) => {
        conn(req);
        const { from, to } = req.query;
        if (from > to || addDays(from, 92) < to) throw new AppError(Code.BAD_REQUEST, 'badRequest', { detail: 'from ≤ to, at most 92 days' }, 400);
        return { code: Code.OK, msg: t(req.lang, 'success'), data: await listRates(deps.db, { from, to }) };
      },
    );
    void FeedRowSchema;
    // Other modules' provider routes (their manifests' `provider`): signed like the feed, `req.gateway` set.
    for (const setup of faceRoutes('provider', modules)) setup(f, deps);
  });
}
