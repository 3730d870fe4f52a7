import { useQuery } from '@tanstack/react-query';
import { ReportApi } from '@portal/contract';
import { reportListQuery, type ReportWireQuery } from './report-client';

/** GET /report/reserve/list */
const reserveListQuery = (q: ReportWireQuery) => reportListQuery(ReportApi.reserveList, q);
export const useReserveList = (q: ReportWireQuery, enabled = true) => useQuery({ ...reserveListQuery(q), enabled });
