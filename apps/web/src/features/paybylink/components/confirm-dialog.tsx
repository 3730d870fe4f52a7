import { Button, Descriptions, Modal, Typography } from 'antd';
import { CopyOutlined, QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { copyText } from '../copy-text';
import { useApp } from '../../../app/lazy-app';

/** Order confirmation (spec §2): the new order's link, with Display QR and Copy link. */
export function ConfirmDialog({ created, onShowQr, onClose }: { created: { orderNo: string; payByLink: string } | null; onShowQr: () => void; onClose: () => void }) {
  const { t } = useTranslation('payByLink');
  const { message } = useApp();
  const copy = async () => (created && (await copyText(created.payByLink)) ? message.success(t('copySuccess')) : message.error(t('copyFailed')));
  return (
    <Modal
      open={!!created}
      title={t('confirm.title')}
      onCancel={onClose}
      width={560}
      destroyOnHidden
      footer={[
        <Button key="copy" icon={<CopyOutlined />} onClick={copy}>
          {t('confirm.copy')}
        </Button>,
        <Button key="qr" type="primary" icon={<QrcodeOutlined />} onClick={onShowQr}>
          {t('confirm.showQr')}
        </Button>,
      ]}
    >
      {created && (
        <>
          <Typography.Paragraph type="secondary">{t('confirm.hint')}</Typography.Paragraph>
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('confirm.orderNo')}>{created.orderNo}</Descriptions.Item>
            <Descriptions.Item label={t('confirm.link')}>
              <Typography.Text style={{ wordBreak: 'break-all' }} data-testid="confirm-link">
                {created.payByLink}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Modal>
  );
}
