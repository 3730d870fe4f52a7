import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { dayjs } from '../../lib/time';
import { useApp } from '../../app/lazy-app';

/**
 * The queued-export flow of spec §4/§5: a period reaching back more than three months from its
 * end shows 'timeChooseTips' and stops; otherwise a confirm dialog (operationTips), then the export
 * is queued and the user goes to /report/file — also when queueing failed.
 */
/**
 * The export period rule (spec §5) as the date pickers' own 'last three months' preset reads it:
 * whole days in the chosen zone, the first day no earlier than the last day three calendar months
 * back. The preset (and every range up to it) passes; one day more does not (issue 13, fix 8).
 */
export function exportPeriodAllowed(begin: string, end: string): boolean {
  const first = dayjs(begin.slice(0, 10));
  const last = dayjs(end.slice(0, 10));
  return !first.isAfter(last) && !first.isBefore(last.subtract(3, 'month'));
}

export function useExportFlow() {
  const { t } = useTranslation('txn');
  const { modal, message } = useApp();
  const navigate = useNavigate();
  return (period: { begin: string; end: string } | null, queue: () => Promise<unknown>) => {
    if (period) {
      if (!exportPeriodAllowed(period.begin, period.end)) {
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
