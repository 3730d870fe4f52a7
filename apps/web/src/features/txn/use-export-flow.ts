import { App } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { dayjs } from '../../lib/time';

/**
 * The queued-export flow of spec §4/§5: a period reaching back more than three months from its
 * end shows 'timeChooseTips' and stops; otherwise a confirm dialog (operationTips), then the export
 * is queued and the user goes to /report/file — also when queueing failed.
 */
export function useExportFlow() {
  const { t } = useTranslation('txn');
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  return (period: { begin: string; end: string } | null, queue: () => Promise<unknown>) => {
    if (period) {
      const end = dayjs(period.end);
      const limit = end.subtract(3, 'month');
      if (dayjs(period.begin).isBefore(limit) || end.isBefore(limit)) {
        message.warning(t('export.timeChooseTips'));
        return;
      }
    }
    modal.confirm({
      title: t('export.confirmTitle'),
      content: t('export.operationTips'),
      okText: t('export.ok'),
      cancelText: t('export.cancel'),
      async onOk() {
        try {
          await queue();
          message.success(t('export.queued'));
        } finally {
          navigate('/report/file');
        }
      },
    });
  };
}
