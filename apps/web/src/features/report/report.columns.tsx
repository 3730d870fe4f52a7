import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { Perm, TXN_SIGN, brandName, type BillRow, type ReserveRow, type SummaryRow, type TransferRow } from '@portal/contract';
import { Can } from '../../components/can';
import type { ReportColumn } from './components/report-table';
import { proofPath } from '../trail/api';

/** The settle list behind a row (spec §2): transactions of merchant, business line and currency settled in the range. */
export function settleListLink(r: { clientid: string; reconBusiness: string; merTxnSet: string }, beginDate: string, endDate: string): string {
  const q = new URLSearchParams({ beginDate, endDate, busLine: r.reconBusiness, setCur: r.merTxnSet, clientid: r.clientid });
  return `/txn/settleList?${q.toString()}`;
}

const details = (t: TFunction, to: string, label: string) => (
  <Can permission={Perm.settleList}>
    <Link to={to} aria-label={label}>
      {t('action.details')}
    </Link>
  </Can>
);

/** A transfer period as people read it: D daily, W3 weekly on Wednesday, M15 monthly on the 15th. */
export function periodText(t: TFunction, p: string): string {
  if (p === 'D') return t('period.D');
  const n = Number(p.slice(1));
  if (p.startsWith('W')) return t('period.W', { day: t(`weekday.${n}`) });
  if (p.startsWith('M')) return t('period.M', { n });
  return p;
}

/** The settlement currency, with the row's business line beside it (rows are per business line). */
const currencyCell = (r: { merTxnSet: string; reconBusiness: string }) => (
  <span>
    {r.merTxnSet} <span className="report-busline">{r.reconBusiness}</span>
  </span>
);

const head = <R extends { txnSetDate: string; clientid: string; merName: string }>(t: TFunction, dateTitle = 'col.txnSetDate'): ReportColumn<R>[] => [
  { key: 'txnSetDate', title: t(dateTitle), width: 110, render: (r) => r.txnSetDate, fixed: 'left' },
  { key: 'clientid', title: t('col.clientid'), width: 150, render: (r) => r.clientid },
  { key: 'merName', title: t('col.merName'), width: 160, render: (r) => r.merName },
];

/**
 * The columns each report leaves out until the user picks them with "Columns" (issue 29 §3: at
 * 1440 px every amount and every page total is in view without scrolling sideways, in every
 * language). What stays: the day, the merchant number, the currency and the figures people reconcile.
 */
export const BILL_HIDDEN = ['merName', 'acquirer', 'historyPendingAmount'] as const;
export const TRANSFER_HIDDEN = ['merName', 'acquirer', 'beforeFee', 'tranThreshold', 'transPeriod'] as const;
export const SUMMARY_HIDDEN = ['merName', 'acquirer', 'merTxnCur', 'merTxnSet', 'merMDRAmount'] as const;

/** Bill report (spec §2): details open the day's settled transactions (their sum is the settlement amount). */
export const billColumns = (t: TFunction): ReportColumn<BillRow>[] => {
  const cur = (r: BillRow) => r.merTxnSet;
  return [
    ...head<BillRow>(t),
    { key: 'acquirer', title: t('col.acquirer'), width: 100, render: (r) => r.instCodeBriefName },
    { key: 'merTxnSet', title: t('col.merTxnSet'), width: 110, render: currencyCell },
    { key: 'reconSetAmount', title: t('col.reconSetAmount'), width: 150, money: { value: (r) => r.reconSetAmount, currency: cur } },
    { key: 'historyPendingAmount', title: t('col.historyPendingAmount'), width: 160, money: { value: (r) => r.historyPendingAmount, currency: cur } },
    { key: 'totalPendingAmount', title: t('col.totalPendingAmount'), width: 160, money: { value: (r) => r.totalPendingAmount, currency: cur } },
    { key: 'transAmount', title: t('col.transAmount'), width: 160, money: { value: (r) => r.transAmount, currency: cur } },
    {
      key: 'details',
      title: t('col.details'),
      width: 90,
      render: (r) => details(t, settleListLink(r, r.txnSetDate, r.txnSetDate), `${t('action.details')} ${r.clientid} ${r.reconBusiness} ${r.txnSetDate}`),
    },
  ];
};

/** Settlement/transfer report (spec §2): details open /txn/settleList from reconSearchDate to the settlement date. */
export const transferColumns = (t: TFunction): ReportColumn<TransferRow>[] => {
  const cur = (r: TransferRow) => r.merTxnSet;
  return [
    ...head<TransferRow>(t),
    { key: 'acquirer', title: t('col.acquirer'), width: 100, render: (r) => r.instCodeBriefName },
    { key: 'merTxnSet', title: t('col.merTxnSet'), width: 110, render: currencyCell },
    { key: 'reconSetAmount', title: t('col.totalSettlement'), width: 150, money: { value: (r) => r.reconSetAmount, currency: cur } },
    { key: 'servAmount', title: t('col.servAmount'), width: 130, money: { value: (r) => r.servAmount, currency: cur } },
    { key: 'beforeFee', title: t('col.beforeFee'), width: 170, money: { value: (r) => r.realTransAmountBeforeTransFee, currency: cur } },
    { key: 'tranFee', title: t('col.tranFee'), width: 120, money: { value: (r) => r.tranFee, currency: cur } },
    { key: 'realTransAmount', title: t('col.realTransAmount'), width: 160, money: { value: (r) => r.realTransAmount, currency: cur } },
    { key: 'tranThreshold', title: t('col.tranThreshold'), width: 140, money: { value: (r) => r.tranThreshold, currency: cur } },
    { key: 'transPeriod', title: t('col.transPeriod'), width: 150, render: (r) => periodText(t, r.transPeriod) },
    { key: 'remitDate', title: t('col.remitDate'), width: 120, render: (r) => r.remitDate ?? '—' },
    {
      key: 'details',
      title: t('col.details'),
      width: 90,
      render: (r) => details(t, settleListLink(r, r.reconSearchDate, r.txnSetDate), `${t('action.details')} ${r.clientid} ${r.reconBusiness} ${r.txnSetDate}`),
    },
    // issue 49: the transfer's payout proof
    {
      key: 'proof',
      title: t('trail:proofLink'),
      width: 80,
      render: (r) =>
        r.remitDate ? (
          <Link to={proofPath(r)} aria-label={`${t('trail:proofLink')} ${r.clientid} ${r.reconBusiness} ${r.txnSetDate}`}>
            {t('trail:proofLink')}
          </Link>
        ) : (
          '—'
        ),
    },
  ];
};

/** Daily summary by payment brand (spec §2); the old version has no brand column; `typeName` names a transaction type. */
/**
 * The settlement sign of a daily-summary row (domain.md): its Amount and converted amount are
 * unsigned on the wire, its settlement amount signed. Refunds, voids, chargebacks, freezes, debits
 * and the reserve held subtract; purchases, releases and credits add; a manual entry carries its own.
 */
function summarySign(r: Pick<SummaryRow, 'txnType'>): 1 | -1 {
  if (r.txnType === 'M-DEPOSIT') return -1;
  if (r.txnType === 'M-DEPOSIT-RELEASE') return 1;
  return (TXN_SIGN as Record<string, number>)[r.txnType] === -1 ? -1 : 1;
}

export const summaryColumns = (t: TFunction, old: boolean, typeName: (code: string) => string = (c) => c): ReportColumn<SummaryRow>[] => {
  const set = (r: SummaryRow) => r.merTxnSet;
  const sign = summarySign;
  return [
    ...head<SummaryRow>(t, 'col.txnDate'),
    { key: 'acquirer', title: t('col.acquirer'), width: 100, render: (r) => r.instCodeBriefName },
    ...(old ? [] : [{ key: 'paymentBrand', title: t('col.paymentBrand'), width: 120, render: (r: SummaryRow) => (r.paymentBrand ? brandName(r.paymentBrand) : '—') }]),
    // The type's name in the user's language (issue 29 §5: PURC, REFD, M-DEPOSIT were shown raw); the filter offers the codes.
    { key: 'txnType', title: t('col.txnType'), width: 120, render: (r) => <span title={r.txnType}>{typeName(r.txnType)}</span> },
    { key: 'txnCount', title: t('col.txnCount'), width: 70, align: 'right', render: (r) => <span className="num">{r.txnCount}</span> },
    { key: 'merTxnCur', title: t('col.merTxnCur'), width: 90, render: (r) => r.merTxnCur },
    // The amounts carry their currencies (two currencies per row: the transaction's and the settlement's; their columns are optional).
    { key: 'merTxnAmount', title: t('col.merTxnAmount'), width: 170, money: { value: (r) => r.merTxnAmount, currency: (r) => r.merTxnCur, showCurrency: true, sign } },
    { key: 'merMDRAmount', title: t('col.merMDRAmount'), width: 170, money: { value: (r) => r.merMDRAmount, currency: set, sign } },
    { key: 'merTxnSet', title: t('col.merTxnSet'), width: 100, render: (r) => r.merTxnSet },
    { key: 'txnSetAmount', title: t('col.txnSetAmount'), width: 170, money: { value: (r) => r.txnSetAmount, currency: set, showCurrency: true } },
    { key: 'txnFee', title: t('col.txnFee'), width: 130, money: { value: (r) => r.txnFee, currency: set } },
  ];
};

/** Reserve release report (spec §2). */
export const reserveColumns = (t: TFunction): ReportColumn<ReserveRow>[] => [
  ...head<ReserveRow>(t),
  { key: 'business', title: t('col.business'), width: 100, render: (r) => r.business },
  { key: 'releaseAmount', title: t('col.releaseAmount'), width: 170, money: { value: (r) => r.releaseAmount, currency: (r) => r.merTxnSet, showCurrency: true } },
  { key: 'releaseDate', title: t('col.releaseDate'), width: 120, render: (r) => r.releaseDate },
  { key: 'transferDate', title: t('col.transferDate'), width: 120, render: (r) => r.transferDate ?? '—' },
];
