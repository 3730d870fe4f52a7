import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** The session could not be loaded because the server did not answer at all (rare: loaded on demand). */
export default function ServerUnreachable({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('error.unreachableTitle')}
      subTitle={t('error.network')}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('retry')}
        </Button>
      }
    />
  );
}
