/** Matches decided by hand: confirmed, undone or dismissed, made manually; each audited. */
import { Code, type BankMatch } from '@portal/contract';
import type { Deps, SessionUser } from '../../plugins/context';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../../lib/audit';
import type { Zone } from './time';
import { signatureOf } from './match';
import * as repo from './bankrec.repo';
import { BankAudit, detailOf, matchOut, money, type Meta } from './bankrec.views';

/** Confirms proposed matches (one, or in bulk); each is audited. Another merchant's id answers as absent. */
export async function confirmMatches(deps: Deps, user: SessionUser, ids: number[], zone: Zone, meta: Meta): Promise<BankMatch[]> {
  return deps.db.tx(async (q) => {
    const found = await repo.matchesById(q, user.scope, ids);
    if (found.length !== new Set(ids).size) throw notFound();
    if (found.some((m) => m.state !== 'proposed')) throw new AppError(Code.BAD_REQUEST, 'bankMatchNotProposed', {}, 400);
    const done = await repo.setMatchState(q, ids, user.scope, 'proposed', 'confirmed', user.username);
    if (done.length !== found.length) throw new AppError(Code.BAD_REQUEST, 'bankMatchNotProposed', {}, 400);
    for (const m of found) {
      await audit(q, {
        action: BankAudit.confirm,
        userId: user.id,
        username: user.username,
        merId: m.mer_id,
        target: `bankrec:match:${m.id}`,
        detail: { before: 'proposed', after: 'confirmed', bulk: ids.length > 1, ...detailOf(m) },
        ...meta,
      });
    }
    return (await repo.matchesById(q, user.scope, ids)).map((m) => matchOut(m, zone));
  });
}

/**
 * Undoes a match by hand: a confirmed one goes back to proposed; a proposed one is dismissed (its
 * credits and transfers are free again, and the matcher will not propose that pairing again).
 */
export async function undoMatch(deps: Deps, user: SessionUser, id: number, zone: Zone, meta: Meta): Promise<BankMatch | null> {
  return deps.db.tx(async (q) => {
    const [m] = await repo.matchesById(q, user.scope, [id]);
    if (!m) throw notFound();
    await repo.lockMerchant(q, m.mer_id);
    if (m.state === 'confirmed') {
      await repo.setMatchState(q, [id], user.scope, 'confirmed', 'proposed', null);
      await audit(q, {
        action: BankAudit.undo,
        userId: user.id,
        username: user.username,
        merId: m.mer_id,
        target: `bankrec:match:${id}`,
        detail: { before: 'confirmed', after: 'proposed', confirmedBy: m.confirmed_by, ...detailOf(m) },
        ...meta,
      });
      const [after] = await repo.matchesById(q, user.scope, [id]);
      return matchOut(after, zone);
    }
    await repo.deleteMatch(
      q,
      id,
      m.mer_id,
      signatureOf(
        m.entries.map((e) => Number(e.id)),
        m.transfers.map(repo.transferIdOf),
      ),
    );
    await audit(q, {
      action: BankAudit.dismiss,
      userId: user.id,
      username: user.username,
      merId: m.mer_id,
      target: `bankrec:match:${id}`,
      detail: { before: 'proposed', after: null, ...detailOf(m) },
      ...meta,
    });
    return null;
  });
}

/** A match made by hand (credits of one merchant and currency ↔ its transfers), confirmed at once. */
export async function manualMatch(deps: Deps, user: SessionUser, input: { entryIds: number[]; transferIds: string[] }, zone: Zone, meta: Meta): Promise<BankMatch> {
  const keys = input.transferIds.map(repo.keyOfTransferId).filter((k) => !!k);
  return deps.db.tx(async (q) => {
    const es = await repo.entriesById(q, user.scope, input.entryIds);
    const ts = await repo.transfersByKey(q, user.scope, keys);
    if (es.length !== new Set(input.entryIds).size || ts.length !== new Set(input.transferIds).size) throw notFound();
    const merId = es[0].mer_id;
    await repo.lockMerchant(q, merId);
    const cur = es[0].currency;
    const fresh = await repo.entriesById(q, user.scope, input.entryIds);
    if (fresh.some((e) => e.taken || Number(e.amount_minor) <= 0 || e.mer_id !== merId || e.currency !== cur) || ts.some((x) => x.taken || x.mer_id !== merId || x.set_cur !== cur)) {
      throw new AppError(Code.BAD_REQUEST, 'bankMatchTaken', {}, 400);
    }
    const credit = es.reduce((s, e) => s + Number(e.amount_minor), 0);
    const transfer = ts.reduce((s, x) => s + Number(x.real_trans_amount), 0);
    if (credit > transfer) throw new AppError(Code.BAD_REQUEST, 'bankMatchCreditExceeds', { credit: `${money(credit, cur)} ${cur}`, transfer: `${money(transfer, cur)} ${cur}` }, 400);
    const [id] = await repo.insertMatches(q, [
      {
        merId,
        kind: 'manual',
        state: 'confirmed',
        currency: cur,
        credit,
        transfer,
        fee: transfer - credit,
        byReference: false,
        entryIds: es.map((e) => Number(e.id)),
        transferIds: ts.map(repo.transferIdOf),
        confirmedBy: user.username,
      },
    ]);
    const [m] = await repo.matchesById(q, user.scope, [id]);
    await audit(q, { action: BankAudit.manual, userId: user.id, username: user.username, merId, target: `bankrec:match:${id}`, detail: { before: null, after: 'confirmed', ...detailOf(m) }, ...meta });
    return matchOut(m, zone);
  });
}
