import { useQuery } from '@tanstack/react-query';
import { ReportApi } from '@portal/contract';
import { reportListQuery, type ReportWireQuery } from './report-client';

/** GET /report/txn/newList (per payment brand) or, for the old version, GET /report/txn/list. */
const summaryListQuery = (q: ReportWireQuery, old: boolean) => reportListQuery(old ? ReportApi.txnList : ReportApi.txnNewList, q);
export const useSummaryList = (q: ReportWireQuery, old: boolean, enabled = true) => useQuery({ ...summaryListQuery(q, old), enabled });
