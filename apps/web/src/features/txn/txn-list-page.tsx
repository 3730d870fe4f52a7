import { useMemo } from 'react';
import { Divider } from 'antd';
import { useTranslation } from 'react-i18next';
import { Perm, type TxnRow } from '@portal/contract';
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

/** /txn/list: every filter of spec §2, filters and page in the URL, per-currency totals, export. */
export function TxnListPage() {
  const { t } = useTranslation('txn');
  const { filters, apply, page, size, pagination } = useTxnFilters();
  const wire = useMemo(() => toWire(filters), [filters]);
  const list = useTxnList({ ...wire, page, size });
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
            <ExportButton onClick={() => exportFlow({ begin: filters.begin, end: filters.end }, () => exportTxnBack({ ...wire, format: 'xlsx' }))}>
              {t('action.export')}
            </ExportButton>
          </Can>
        }
      />
      <Divider style={{ margin: '16px 0' }} />
      <TxnTotals query={wire} />
      <ListTable<TxnRow> ns="txn" style={{ marginTop: 16 }} columns={columns} list={list} pagination={pagination} scrollX={1190} />
    </PageContainer>
  );
}
