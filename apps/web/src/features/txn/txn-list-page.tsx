import { useMemo } from 'react';
import { Divider, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Perm, type TxnRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ExportButton } from '../../components/export-button';
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
  const { data, isFetching } = useTxnList({ ...wire, page, size });
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
      <Table<TxnRow>
        style={{ marginTop: 16 }}
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.content ?? []}
        loading={isFetching}
        scroll={{ x: 1190 }}
        pagination={pagination(data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
      />
    </PageContainer>
  );
}
