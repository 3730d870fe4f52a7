import { useMemo } from 'react';
import { Button, Divider } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Perm, type PayByLinkRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ExportButton } from '../../components/export-button';
import { useApp } from '../../app/lazy-app';
import { ListTable } from '../../components/list-table';
import { Can, useCan } from '../../components/can';
import { usePblList } from './api/get-pbl-list';
import { exportPbl } from './api/files';
import { PblFilterForm } from './components/pbl-filter-form';
import { pblColumns } from './pbl.columns';
import { toWire, usePblFilters } from './use-pbl-filters';
import { usePblFlow } from './use-pbl-flow';

/** /payByLink/list (spec §2): filters in the URL, export, new order, close / update / details per row. */
export function PblListPage() {
  const { t, i18n } = useTranslation('payByLink');
  const { message } = useApp();
  const { filters, apply, page, size, pagination } = usePblFilters();
  const wire = useMemo(() => toWire(filters), [filters]);
  const list = usePblList({ ...wire, page, size });
  const flow = usePblFlow();
  const canDetail = useCan(Perm.payByLinkDetail);
  const canClose = useCan(Perm.payByLinkClose);
  const canUpdate = useCan(Perm.payByLinkUpdate);
  const { confirmClose, openUpdate } = flow;
  const columns = useMemo(
    () => pblColumns(t, { canDetail, canClose, canUpdate, onClose: confirmClose, onUpdate: (r) => openUpdate(r.id) }, i18n.language),
    [t, i18n.language, canDetail, canClose, canUpdate, confirmClose, openUpdate],
  );

  return (
    <PageContainer>
      <PblFilterForm
        value={filters}
        onSearch={apply}
        extra={
          <>
            <ExportButton
              onClick={() =>
                void exportPbl(wire).then(
                  (file) => message.success(t('exported', { file })),
                  () => undefined,
                )
              }
            >
              {t('action.export')}
            </ExportButton>
            <Can permission={Perm.payByLinkCreate}>
              <Button type="primary" icon={<PlusOutlined />} onClick={flow.openCreate}>
                {t('action.newOrder')}
              </Button>
            </Can>
          </>
        }
      />
      <Divider style={{ margin: '16px 0' }} />
      <div className="pbl-list">
        <ListTable<PayByLinkRow> ns="payByLink" columns={columns} list={list} pagination={pagination} scrollX={1125} />
      </div>
      {flow.dialogs}
    </PageContainer>
  );
}
