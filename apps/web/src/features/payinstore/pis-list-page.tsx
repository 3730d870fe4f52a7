import { useMemo } from 'react';
import { Button, Divider } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Perm, type PayInStoreRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ExportButton } from '../../components/export-button';
import { useApp } from '../../app/lazy-app';
import { ListTable } from '../../components/list-table';
import { Can } from '../../components/can';
import { exportPis, getPisDetail, usePisList } from './api/orders';
import { useStores } from './api/stores';
import { PisFilterForm } from './components/pis-filter-form';
import { pisColumns } from './pis.columns';
import { toWire, usePisFilters } from './use-pis-filters';
import { usePisFlow } from './use-pis-flow';

/** /payInStore/list: in-store orders with filters in the URL, export, and a new order with its dynamic QR. */
export function PisListPage() {
  const { t } = useTranslation('payInStore');
  const { message } = useApp();
  const { filters, apply, page, size, pagination } = usePisFilters();
  const wire = useMemo(() => toWire(filters), [filters]);
  const list = usePisList({ ...wire, page, size });
  const stores = useStores();
  const flow = usePisFlow(stores.data ?? []);
  const { openQr } = flow;
  const columns = useMemo(
    () =>
      pisColumns(t, {
        onShowQr: async (r: PayInStoreRow) => {
          const d = await getPisDetail(r.id).catch(() => null);
          if (d) openQr({ orderno: d.orderno, reconId: '', merName: d.merName, subtitle: d.storeName, orderCurrency: d.orderCurrency, totalAmount: d.totalAmount, link: d.link, storeId: d.storeId });
        },
      }),
    [t, openQr],
  );
  return (
    <PageContainer>
      <PisFilterForm
        value={filters}
        stores={stores.data ?? []}
        onSearch={apply}
        extra={
          <>
            <ExportButton
              onClick={() =>
                void exportPis(wire).then(
                  (file) => message.success(t('exported', { file })),
                  () => undefined,
                )
              }
            >
              {t('action.export')}
            </ExportButton>
            <Can permission={Perm.payInStoreCreate}>
              <Button type="primary" icon={<PlusOutlined />} onClick={flow.openCreate} disabled={stores.isPending}>
                {t('action.newOrder')}
              </Button>
            </Can>
          </>
        }
      />
      <Divider style={{ margin: '16px 0' }} />
      <ListTable<PayInStoreRow> ns="payInStore" columns={columns} list={list} pagination={pagination} scrollX={1300} />
      {flow.dialogs}
    </PageContainer>
  );
}
