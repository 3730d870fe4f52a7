import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../../components/export-button';
import { exportReport, type ReportExportPath, type ReportWireQuery } from '../api/report-client';
import { useApp } from '../../../app/lazy-app';

/**
 * The export of a report (locked 3 s after a click): a short range downloads at once; a long one is
 * queued by the server, and the user goes to /report/file where it lands.
 */
export function ReportExportButton({ path, query, disabled }: { path: ReportExportPath; query: ReportWireQuery; disabled?: boolean }) {
  const { t } = useTranslation('report');
  const { message } = useApp();
  const navigate = useNavigate();
  return (
    <ExportButton
      disabled={disabled}
      onClick={async () => {
        const out = await exportReport(path, { ...query, format: 'xlsx' }).catch(() => null);
        if (!out) return;
        if (out.kind === 'file') message.success(t('export.done', { name: out.filename }));
        else {
          message.success(out.msg || t('export.queued'));
          navigate('/report/file');
        }
      }}
    >
      {t('action.export')}
    </ExportButton>
  );
}
