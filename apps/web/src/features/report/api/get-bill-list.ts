import { useQuery } from '@tanstack/react-query';
import { ReportApi } from '@portal/contract';
import { reportListQuery, type ReportWireQuery } from './report-client';

/** GET /report/bill/list */
const billListQuery = (q: ReportWireQuery) => reportListQuery(ReportApi.billList, q);
export const useBillList = (q: ReportWireQuery, enabled = true) => useQuery({ ...billListQuery(q), enabled });
