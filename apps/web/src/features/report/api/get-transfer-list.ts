import { useQuery } from '@tanstack/react-query';
import { ReportApi } from '@portal/contract';
import { reportListQuery, type ReportWireQuery } from './report-client';

/** GET /report/transfer/list */
const transferListQuery = (q: ReportWireQuery) => reportListQuery(ReportApi.transferList, q);
export const useTransferList = (q: ReportWireQuery, enabled = true) => useQuery({ ...transferListQuery(q), enabled });
