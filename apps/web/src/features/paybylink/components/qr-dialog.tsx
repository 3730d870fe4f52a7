import { Button, Divider, Flex, Modal, QRCode, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, type PayMethod } from '@portal/contract';
import { formatAmount } from '../../../components/money';
import { useQrList } from '../api/files';
import { useQrPolling, type StatusFetcher } from '../use-qr-polling';

/** What the QR dialog shows of an order. */
export interface QrOrder {
  orderno: string;
  reconId: string;
  merName: string;
  orderCurrency: string;
  totalAmount: string;
  link: string;
  /** A line under the merchant name (an in-store order's store). */
  subtitle?: string;
}

/**
 * The payment QR (spec §2): merchant name, currency and amount, the QR of the link at 220 px, the
 * bilingual scan hint and the payment channel logos 5 per row; polls the status every 3 s (§4).
 */
export function QrDialog({
  order,
  onClose,
  onResult,
  methods,
  fetchStatus,
  showLink,
}: {
  order: QrOrder | null;
  onClose: () => void;
  onResult: (status: '00' | '01', order: QrOrder) => void;
  /** The logos to show (pay in store: /payInStore/logoList); by default the link's /payByLink/qrList. */
  methods?: { data?: PayMethod[]; isPending: boolean };
  /** What to poll (pay in store: /payInStore/orderno/{no}); by default /payByLink/orderno/{no}. */
  fetchStatus?: StatusFetcher;
  /** Show the link under the QR (copyable), for a buyer who cannot scan. */
  showLink?: boolean;
}) {
  const { t, i18n } = useTranslation('payByLink');
  const linkLogos = useQrList(methods ? '' : (order?.link ?? ''), order?.orderCurrency ?? '');
  const logos = methods ?? linkLogos;
  const poll = useQrPolling(order?.orderno ?? null, !!order, (s) => order && onResult(s, order), fetchStatus);

  return (
    <Modal open={!!order} title={t('qr.title')} footer={null} onCancel={onClose} width={440} destroyOnHidden centered>
      {order && (
        <Flex vertical align="center" gap={8} data-testid="qr-dialog">
          <Typography.Text type="secondary">{t('qr.merchant')}</Typography.Text>
          <Typography.Title level={5} style={{ margin: 0 }} data-testid="qr-merchant">
            {order.merName}
          </Typography.Title>
          {order.subtitle && (
            <Typography.Text type="secondary" data-testid="qr-subtitle">
              {order.subtitle}
            </Typography.Text>
          )}
          <Typography.Title level={3} style={{ margin: '4px 0 8px' }} data-testid="qr-amount">
            <span style={{ fontSize: 16, color: 'rgba(0,0,0,0.55)', marginRight: 6 }}>{order.orderCurrency}</span>
            {formatAmount(order.totalAmount, order.orderCurrency, i18n.language)}
          </Typography.Title>
          <QRCode value={order.link} size={LIMITS.qrSize} bordered errorLevel="M" data-testid="qr-code" />
          {showLink && (
            <Typography.Text copyable={{ text: order.link }} type="secondary" style={{ fontSize: 12, wordBreak: 'break-all', textAlign: 'center' }} data-testid="qr-link">
              {order.link}
            </Typography.Text>
          )}
          <Flex vertical align="center" style={{ textAlign: 'center' }}>
            <Typography.Text strong>{t('qr.scanHint')}</Typography.Text>
            {/* The hint in the other language is marked as that language (issue 53): read by a screen
                reader in its own voice, and Chinese drawn with Chinese glyphs on a Japanese or English page. */}
            <Typography.Text type="secondary" lang={i18n.language === 'en' ? 'zh-Hans' : 'en'} data-testid="qr-hint-other">
              {t('qr.scanHintOther')}
            </Typography.Text>
          </Flex>
          <Divider plain style={{ margin: '8px 0' }}>
            {t('qr.methods')}
          </Divider>
          {logos.isPending ? (
            <Skeleton.Button active block />
          ) : (
            <div data-testid="qr-logos" style={{ display: 'grid', gridTemplateColumns: `repeat(${LIMITS.logosPerRow}, 70px)`, gap: 8, justifyContent: 'center' }}>
              {(logos.data ?? []).map((m) => (
                <img key={m.code} src={m.logo} alt={m.name} title={m.name} width={70} height={28} />
              ))}
            </div>
          )}
          <Space style={{ marginTop: 8 }}>
            {poll.stopped ? (
              <>
                <Typography.Text type="secondary">{t('qr.stopped')}</Typography.Text>
                <Button size="small" onClick={poll.restart}>
                  {t('qr.checkAgain')}
                </Button>
              </>
            ) : (
              <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="qr-countdown">
                {t('qr.waiting', { count: poll.countdown })}
              </Typography.Text>
            )}
          </Space>
        </Flex>
      )}
    </Modal>
  );
}
