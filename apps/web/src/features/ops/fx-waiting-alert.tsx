import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from 'antd';
import type { OpsFxWaiting } from './api/ops-rates-http';

/** The runs screen's notice of transactions a settlement run left for want of an exchange rate (issue 46). */
export function FxWaitingAlert({ waiting }: { waiting: OpsFxWaiting | undefined }) {
  const { t } = useTranslation('opsRates');
  if (!waiting?.total) return null;
  return (
    <Alert
      className="ops-rates__alert"
      type="warning"
      showIcon
      role="status"
      message={t('waiting.title', { count: waiting.total })}
      description={
        <>
          {waiting.pairs.map((p) => (
            <div key={p.pair}>{t('waiting.pair', { pair: p.pair.replace('>', ' → '), count: p.count, since: p.since ?? '—' })}</div>
          ))}
          <div>
            {t('waiting.explain')} <Link to="/ops/rates">{t('waiting.open')}</Link>
          </div>
        </>
      }
    />
  );
}
