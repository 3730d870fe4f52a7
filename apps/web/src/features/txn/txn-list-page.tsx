import { useMemo, useState } from 'react';
import { Divider, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Perm, TXN_MAX_OFFSET, type TxnRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ExportButton } from '../../components/export-button';
import { ListTable } from '../../components/list-table';
import { Can } from '../../components/can';
import { useTxnList } from './api/get-txn-list';
import { exportTxnBack } from './api/export-txn';
import { TxnFilterForm } from './components/txn-filter-form';
import { TxnTotals } from './components/txn-totals';
import { txnColumns } from './txn.columns';
import { toWire, useTxnFilters } from './use-txn-filters';
import { useExportFlow } from './use-export-flow';
import { usePageCursor } from './use-page-cursor';
import { ScheduleButton } from '../schedule/schedule-button';

/** /txn/list: every filter of spec §2, filters and page in the URL, per-currency totals, export. */
export function TxnListPage() {
  const { t } = useTranslation('txn');
  const { filters, apply, page, size, pagination } = useTxnFilters();
  const wire = useMemo(() => toWire(filters), [filters]);
  // The exact count (past the server's budget) only when asked, for the filter it was asked for.
  const filterKey = JSON.stringify(wire);
  const [exactFor, setExactFor] = useState<string | null>(null);
  // Next reads by keyset from the last row of the page before (as cheap as page 1 however deep).
  const cursor = usePageCursor(filterKey, size);
  const after = cursor.after(page);
  const list = useTxnList({ ...wire, page, size, ...(after ? { after } : {}), ...(exactFor === filterKey ? { exactTotal: 'true' } : {}) });
  cursor.useRemember(page, list);
  const exportFlow = useExportFlow();
  const columns = useMemo(() => txnColumns<TxnRow>(t, filters.tz), [t, filters.tz]);

  return (
    <PageContainer>
      <TxnFilterForm
        value={filters}
        onSearch={apply}
        onClear={() => apply(null)}
        extra={
          <Can permission={Perm.txnExport}>
            <Space wrap>
              <ExportButton onClick={() => exportFlow({ begin: filters.begin, end: filters.end }, () => exportTxnBack({ ...wire, format: 'xlsx' }))}>{t('action.export')}</ExportButton>
              {/* The API writes CSV too (issue 29 §7): offered beside XLSX. */}
              <ExportButton onClick={() => exportFlow({ begin: filters.begin, end: filters.end }, () => exportTxnBack({ ...wire, format: 'csv' }))}>{t('action.exportCsv')}</ExportButton>
              <ScheduleButton kind="txn" params={{ ...wire }} />
            </Space>
          </Can>
        }
      />
      <Divider style={{ margin: '16px 0' }} />
      <TxnTotals query={wire} />
      <ListTable<TxnRow>
        ns="txn"
        style={{ marginTop: 16 }}
        columns={columns}
        list={list}
        pagination={pagination}
        scrollX={1120}
        onCountExactly={() => setExactFor(filterKey)}
        maxRows={TXN_MAX_OFFSET}
      />
    </PageContainer>
  );
}
