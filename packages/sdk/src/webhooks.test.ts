import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { verifyPortalSignature, verifyStandardWebhook, verifyWebhook, WebhookVerificationError } from './webhooks';
import type { Schemas, WebhookEventType, WebhookPayload } from './types';

/**
 * The SDK's webhook helpers against the schemes' own libraries (issue 50): what `standardwebhooks`
 * signs the SDK verifies, and what the SDK accepts for the default scheme Stripe's `constructEvent`
 * accepts too (the same `t=…,v1=…` form) — and both refuse what the other refuses.
 */
const body = JSON.stringify({ id: 'evt_1', type: 'refund.succeeded', created: 1764750000, merId: '100000000000002', data: { id: 'GW1', amount: '5.00', currency: 'CNY' } });
const now = Math.floor(Date.now() / 1000);

describe('webhook verification helpers', () => {
  it('Standard Webhooks: what the standardwebhooks library signs verifies; another secret, a changed body or an old timestamp does not', () => {
    const secret = `whsec_${Buffer.from('a secret of twenty-four b').toString('base64')}`;
    const wh = new Webhook(secret);
    const at = new Date(now * 1000);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(now), 'webhook-signature': wh.sign('evt_1', at, body) };
    expect(verifyStandardWebhook(body, headers, secret).type).toBe('refund.succeeded');
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret).id).toBe('evt_1');
    // The library agrees with the SDK's verdicts.
    expect(() => wh.verify(body, headers)).not.toThrow();
    const other = `whsec_${Buffer.from('another secret, 24 bytes').toString('base64')}`;
    expect(() => verifyStandardWebhook(body, headers, other)).toThrow(WebhookVerificationError);
    expect(() => verifyStandardWebhook(body.replace('5.00', '6.00'), headers, secret)).toThrow(/no signature matches/);
    expect(() => verifyStandardWebhook(body, headers, secret, { now: now + 301 })).toThrow(/tolerance/);
    expect(() => verifyStandardWebhook(body, { 'webhook-id': 'evt_1' }, secret)).toThrow(/missing/);
    // Two signatures (a rotation): either one verifies.
    const rotated = { ...headers, 'webhook-signature': `${new Webhook(other).sign('evt_1', at, body)} ${headers['webhook-signature']}` };
    expect(verifyStandardWebhook(body, rotated, secret).id).toBe('evt_1');
  });

  it("the default scheme (Portal-Signature): Stripe's test header verifies with the SDK, and Stripe's constructEvent accepts what the SDK accepts", () => {
    const secret = 'whsec_c2VjcmV0LW9mLXRoZS1lbmRwb2ludA';
    const stripe = new Stripe('sk_test_unused');
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: now });
    expect(verifyPortalSignature(body, header, secret).data.id).toBe('GW1');
    expect(stripe.webhooks.constructEvent(body, header, secret).id).toBe('evt_1');
    expect(verifyWebhook(body, { 'Portal-Signature': header }, secret).id).toBe('evt_1');
    expect(() => verifyPortalSignature(body, header, 'whsec_wrong')).toThrow(/no signature matches/);
    expect(() => stripe.webhooks.constructEvent(body, header, 'whsec_wrong')).toThrow();
    expect(() => verifyPortalSignature(body, header, secret, { now: now + 600 })).toThrow(/tolerance/);
    expect(() => verifyPortalSignature(body, `t=${now}`, secret)).toThrow(/no v1/);
    expect(() => verifyPortalSignature(body, null, secret)).toThrow(/no Portal-Signature/);
    // A second v1 (the previous secret, 24 hours after a rotation): either verifies.
    const old = stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_old', timestamp: now });
    expect(verifyPortalSignature(body, `${header},${old.split(',')[1]}`, 'whsec_old').id).toBe('evt_1');
    expect(() => verifyPortalSignature('not json', stripe.webhooks.generateTestHeaderString({ payload: 'not json', secret, timestamp: now }), secret)).toThrow(/not JSON/);
  });
});

describe('typed webhook payloads (the document’s webhooks, decision 079)', () => {
  it('a delivery body narrows to its form; the 2026-12-03 transaction event carries the /v1 Transaction', () => {
    const delivered = JSON.parse(body.replace('refund.succeeded', 'transaction.succeeded')) as WebhookPayload<'transaction.succeeded'>;
    // Compile-time: the new form's data is Schemas['Transaction'], the old form's has the gateway id as `id`.
    const txnOf = (p: WebhookPayload<'transaction.succeeded'>): Schemas['Transaction'] | string => ('created_at' in p ? p.data : p.data.id);
    const types: WebhookEventType[] = ['transaction.succeeded', 'refund.succeeded', 'dispute.closed'];
    expect(txnOf(delivered)).toBe('GW1');
    expect(types).toHaveLength(3);
  });
});
