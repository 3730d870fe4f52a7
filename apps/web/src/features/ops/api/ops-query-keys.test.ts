import { describe, expect, it } from 'vitest';
import { OpsApi, OpsMerchantsApi, OpsWorkApi } from '@portal/contract';
import { OPS_ENDPOINTS } from '@portal/contract/endpoints/all';
import { apiKey, areaKey, ofEndpoints } from '../../../lib/api-query';
import { matched } from '../../../lib/matched-queries.testing';
import { opsQuery } from './ops-query';

/**
 * The back office's query keys come from its descriptors (issue 45 §3): the path under /api, so each
 * starts with 'ops' — what a merchant change or a fee schedule invalidates (['ops'], as before) —
 * and the narrower refreshes name a descriptor's prefix. The inputs are the screens' own.
 */
const merchants = opsQuery(OpsMerchantsApi.list, { page: 0, size: 20 }).queryKey;
const groups = opsQuery(OpsMerchantsApi.list, { attribute: 'GROUP', size: 100 }).queryKey;
const merchant = opsQuery(OpsMerchantsApi.get, { merId: '800000000000001' }).queryKey;
const fees = opsQuery(OpsMerchantsApi.fees, { merId: '800000000000001' }).queryKey;
const pickers = opsQuery(OpsMerchantsApi.list, { size: 100, search: 'acme' }).queryKey;
const notices = opsQuery(OpsMerchantsApi.notices, { status: 'published', page: 0, size: 20 }).queryKey;
const disputes = opsQuery(OpsWorkApi.disputes, { page: 0, size: 20 }).queryKey;
const dispute = opsQuery(OpsWorkApi.dispute, { id: 7 }).queryKey;
const runs = opsQuery(OpsWorkApi.settlementRuns, { from: '2026-03-01', to: '2026-03-31' }).queryKey;
const exportsQ = opsQuery(OpsWorkApi.exports, { status: undefined }).queryKey;
const jobs = opsQuery(OpsWorkApi.jobs, { status: 'failed' }).queryKey;
const gateways = opsQuery(OpsWorkApi.gateways, undefined).queryKey;
const rates = opsQuery(OpsWorkApi.rates, { from: '2026-03-01', to: '2026-03-31', pair: undefined }).queryKey;
const rateHistory = opsQuery(OpsWorkApi.rateHistory, { date: '2026-03-02', from: 'USD', to: 'HKD' }).queryKey;
const sessions = opsQuery(OpsApi.sessions, undefined).queryKey;
const operators = opsQuery(OpsApi.operators, undefined).queryKey;
const bankChanges = opsQuery(OpsMerchantsApi.bankChanges, { status: 'PENDING' }).queryKey;
const sso = opsQuery(OpsWorkApi.ssoMerchants, undefined).queryKey;
const ALL = [merchants, groups, merchant, fees, pickers, notices, disputes, dispute, runs, exportsQ, jobs, gateways, rates, rateHistory, sessions, operators, bankChanges, sso];

describe('back-office query keys from the endpoint table', () => {
  it('every back-office descriptor key starts with "ops": the merchants page and fee schedules ["ops"] refresh reaches every query', () => {
    for (const { name, endpoint } of OPS_ENDPOINTS) expect(apiKey(endpoint)[0], name).toBe('ops');
    expect(areaKey(OpsMerchantsApi.list)).toEqual(['ops']);
    expect(matched({ queryKey: areaKey(OpsMerchantsApi.list) }, ALL)).toEqual(ALL);
  });

  it('the merchant detail and its fees changed shape (["ops", "merchant", id] → ["ops", "merchants", ":merId", { merId }]) and stay under ["ops"]', () => {
    expect(merchant).toEqual(['ops', 'merchants', ':merId', { merId: '800000000000001' }]);
    expect(fees).toEqual(['ops', 'merchants', ':merId', 'fees', { merId: '800000000000001' }]);
    expect(groups).not.toEqual(merchants);
  });

  it('the narrower refreshes: disputes, runs, jobs, rates, bank changes, sessions, operators, SSO', () => {
    expect(matched({ queryKey: areaKey(OpsWorkApi.disputes, 2) }, ALL)).toEqual([disputes, dispute]);
    expect(matched({ queryKey: areaKey(OpsWorkApi.settlementRuns, 2) }, ALL)).toEqual([runs, exportsQ, jobs, gateways]);
    expect(matched({ queryKey: apiKey(OpsWorkApi.jobs) }, ALL)).toEqual([jobs]);
    expect(matched({ queryKey: apiKey(OpsWorkApi.rates) }, ALL)).toEqual([rates, rateHistory]);
    expect(matched({ queryKey: apiKey(OpsMerchantsApi.bankChanges) }, ALL)).toEqual([bankChanges]);
    expect(matched({ queryKey: apiKey(OpsApi.sessions) }, ALL)).toEqual([sessions]);
    expect(matched({ queryKey: apiKey(OpsApi.operators) }, ALL)).toEqual([operators]);
    expect(matched({ queryKey: apiKey(OpsWorkApi.ssoMerchants) }, ALL)).toEqual([sso]);
  });

  it("the notices page's refresh: its list and its merchant pickers (both were under ['ops', 'notices']), not a merchant's detail", () => {
    expect(matched({ predicate: ofEndpoints(OpsMerchantsApi.notices, OpsMerchantsApi.list) }, ALL)).toEqual([merchants, groups, pickers, notices]);
  });
});
