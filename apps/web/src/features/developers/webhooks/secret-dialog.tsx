import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WebhookSecret } from '@portal/contract';
import { formatInstant } from '../../../lib/time';

/** The signing secret, shown once after creation or rotation. */
export function SecretDialog({ secret, onClose }: { secret: WebhookSecret | null; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  return (
    <Modal open={!!secret} title={t('secret.title')} onOk={onClose} onCancel={onClose} okText={t('action.close')} cancelButtonProps={{ style: { display: 'none' } }}>
      {secret && (
        <>
          <Alert type="warning" showIcon message={t('secret.once')} style={{ marginBottom: 12 }} />
          <Typography.Paragraph copyable={{ text: secret.secret }} code style={{ wordBreak: 'break-all' }} aria-label={t('secret.title')}>
            {secret.secret}
          </Typography.Paragraph>
          <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
            {secret.endpoint.url}
          </Typography.Text>
          {secret.endpoint.previousSecretUntil && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {t('secret.previous', { time: formatInstant(secret.endpoint.previousSecretUntil) })}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Modal>
  );
}
