/** The matcher run over a merchant's free credits and transfers, and the matching screen with each miss explained. */
import type { BankMatching, Language } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import type { Db } from '../../db/db';
import { t } from '../../lib/messages';
import type { Zone } from './time';
import { minorToText } from './parse/amount';
import { explainCredit, explainTransfer, proposeMatches, transferIdsIn, WINDOW_AFTER, WINDOW_BEFORE, type Why } from './match';
import * as repo from './bankrec.repo';
import { addDays, entryOut, matchOut, merchantsOf, transferOut } from './bankrec.views';

/**
 * Runs the matcher over the merchant's unmatched credits and transfers and stores its proposals
 * (serialised per merchant with the imports; no network call inside).
 */
export async function runMatching(db: Db, merId: string): Promise<number> {
  return db.tx(async (q) => {
    await repo.lockMerchant(q, merId);
    const credits = (await repo.freeCredits(q, [merId])).map(repo.toCredit);
    if (!credits.length) return 0;
    const dates = credits.map((c) => c.date).sort();
    const transfers = (await repo.freeTransfers(q, [merId], addDays(dates[0], -WINDOW_AFTER), addDays(dates[dates.length - 1], WINDOW_BEFORE))).map(repo.toTransfer);
    // Transfers a credit names by id may lie outside the window: fetched by key.
    const have = new Set(transfers.map((x) => x.id));
    const named = [...new Set(credits.flatMap(transferIdsIn))]
      .filter((i) => !have.has(i))
      .map(repo.keyOfTransferId)
      .filter((k) => !!k);
    for (const r of await repo.transfersByKey(q, [merId], named)) if (!r.taken) transfers.push(repo.toTransfer(r));
    const proposals = proposeMatches(credits, transfers, await repo.dismissedSignatures(q, merId));
    await repo.insertMatches(
      q,
      proposals.map((p) => ({ ...p, merId, state: 'proposed' as const })),
    );
    return proposals.length;
  });
}

/** An amount for a sentence in the user's language: grouped, the currency's decimals, signed when asked. */
function moneyText(lang: Language, minor: number, cur: string, signed = false): string {
  const e = minorToText(1, cur).split('.')[1]?.length ?? 0;
  const n = new Intl.NumberFormat(lang, { minimumFractionDigits: e, maximumFractionDigits: e, signDisplay: signed ? 'exceptZero' : 'auto' }).format(minor / 10 ** e);
  return `${n} ${cur}`;
}

function whyText(lang: Language, w: Why): { code: Why['code']; text: string } {
  switch (w.code) {
    case 'amountOff':
      return { code: w.code, text: t(lang, 'bankWhyAmountOff', { diff: moneyText(lang, w.diff, w.currency, true) }) };
    case 'feeTooLarge':
      return { code: w.code, text: t(lang, 'bankWhyFeeTooLarge', { diff: moneyText(lang, -w.diff, w.currency), max: moneyText(lang, w.max, w.currency) }) };
    case 'dateOutside':
      return { code: w.code, text: t(lang, 'bankWhyDateOutside', { days: w.days > 0 ? `+${w.days}` : String(w.days) }) };
    case 'referenceDiffers':
      return { code: w.code, text: t(lang, 'bankWhyReferenceDiffers', { reference: w.reference }) };
    case 'currencyDiffers':
      return { code: w.code, text: t(lang, 'bankWhyCurrencyDiffers', { currency: w.currency }) };
  }
}

const LIST_MAX = 500;

/** The matching screen: matches, unmatched credits and transfers without a credit in a date range, each miss with its why. */
export async function matchingView(deps: Deps, user: SessionUser, query: { merId?: string; beginDate: string; endDate: string }, lang: Language, zone: Zone): Promise<BankMatching> {
  const mers = merchantsOf(user, query.merId);
  if (!mers.length) return { matches: [], unmatchedCredits: [], transfersWithoutCredit: [] };
  const db = deps.db;
  const matches = await repo.matchesIn(db, mers, query.beginDate, query.endDate);
  const credits = (await repo.freeCredits(db, mers, { begin: query.beginDate, end: query.endDate })).slice(0, LIST_MAX);
  const transfers = (await repo.freeTransfers(db, mers, query.beginDate, query.endDate)).slice(0, LIST_MAX);
  // Near-misses are explained against the other side's unmatched rows of the same merchant,
  // a little beyond the range (a credit booked just after it).
  const wideT = (await repo.freeTransfers(db, mers, addDays(query.beginDate, -WINDOW_AFTER - 10), addDays(query.endDate, WINDOW_BEFORE + 10))).map((x) => ({ mer: x.mer_id, t: repo.toTransfer(x) }));
  const wideC = (await repo.freeCredits(db, mers, { begin: addDays(query.beginDate, -WINDOW_BEFORE - 10), end: addDays(query.endDate, WINDOW_AFTER + 10) })).map((e) => ({
    mer: e.mer_id,
    c: repo.toCredit(e),
  }));
  return {
    matches: matches.map((m) => matchOut(m, zone)),
    unmatchedCredits: credits.map((e) => {
      const miss = explainCredit(
        repo.toCredit(e),
        wideT.filter((x) => x.mer === e.mer_id).map((x) => x.t),
      );
      return { entry: entryOut(e), nearest: miss.nearest === null ? null : String(miss.nearest), why: miss.why.map((w) => whyText(lang, w)) };
    }),
    transfersWithoutCredit: transfers.map((x) => {
      const miss = explainTransfer(
        repo.toTransfer(x),
        wideC.filter((c) => c.mer === x.mer_id).map((c) => c.c),
      );
      return { transfer: transferOut(x), nearest: typeof miss.nearest === 'number' ? miss.nearest : null, why: miss.why.map((w) => whyText(lang, w)) };
    }),
  };
}
