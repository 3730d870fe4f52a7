import { useMemo } from 'react';
import { Divider } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AuditRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { ListTable } from '../../components/list-table';
import { ExportButton } from '../../components/export-button';
import { NoAccessResult } from '../errors/no-access-result';
import { useUser } from '../../lib/session';
import { exportAudit, useAuditList } from './api/audit';
import { AuditFilterForm } from './components/audit-filter-form';
import { useAuditFilters } from './use-team-filters';
import { auditColumns } from './audit.columns';
import { useApp } from '../../app/lazy-app';

/** /merchant/audit: every audited event of the merchant's scope (main users), filters, paging, CSV export. */
export function AuditPage() {
  const me = useUser();
  return me.userAdmin ? <AuditLog /> : <NoAccessResult />;
}

function AuditLog() {
  const { t } = useTranslation('team');
  const { message } = useApp();
  const navigate = useNavigate();
  const { filters, apply, page, size, pagination } = useAuditFilters();
  const list = useAuditList({ ...filters, page, size });
  const columns = useMemo(() => auditColumns(t), [t]);
  const queue = async () => {
    try {
      await exportAudit({ ...filters });
      message.success(t('audit.exportQueued'));
    } finally {
      navigate('/report/file');
    }
  };
  return (
    <PageContainer>
      <AuditFilterForm value={filters} onSearch={apply} extra={<ExportButton onClick={() => void queue().catch(() => undefined)}>{t('audit.export')}</ExportButton>} />
      <Divider style={{ margin: '16px 0' }} />
      <ListTable<AuditRow> ns="team" columns={columns} list={list} pagination={pagination} scrollX={1100} />
    </PageContainer>
  );
}
