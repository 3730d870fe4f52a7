import { Alert, Button, Card, Descriptions, Flex, Skeleton, Space, Tag, Typography } from 'antd';
import { CopyOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Perm, brandName, canShowPblQr } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { formatAmount } from '../../components/money';
import { useCan } from '../../components/can';
import { formatPlatform } from '../../lib/time';
import { NotFoundResult } from '../errors/not-found-result';
import { ActivityTimeline } from '../paybylink/components/detail-blocks';
import { PblStatusTag } from '../paybylink/components/pbl-status-tag';
import { copyText } from '../paybylink/copy-text';
import { usePisDetail } from './api/orders';
import { useStores } from './api/stores';
import { usePisFlow } from './use-pis-flow';
import { useApp } from '../../app/lazy-app';

/** /payInStore/detail/{id}: the order, its store, payment, pay link and timeline; the QR while it awaits payment. */
export function PisDetailPage() {
  const { t, i18n } = useTranslation(['payInStore', 'payByLink']);
  const { message } = useApp();
  const { id = '' } = useParams();
  const valid = /^\d+$/.test(id);
  const { data: d, isPending, isError, error } = usePisDetail(id, valid);
  const stores = useStores();
  const flow = usePisFlow(stores.data ?? []);
  const canTxn = useCan(Perm.txnDetail);
  if (!valid || (isError && [404, 400].includes((error as { code?: number })?.code ?? 0))) return <NotFoundResult />;
  const qr =
    d && canShowPblQr(d) ? (
      <Button
        type="primary"
        icon={<QrcodeOutlined />}
        onClick={() =>
          flow.openQr({ orderno: d.orderno, reconId: '', merName: d.merName, subtitle: d.storeName, orderCurrency: d.orderCurrency, totalAmount: d.totalAmount, link: d.link, storeId: d.storeId })
        }
      >
        {t('action.showQr')}
      </Button>
    ) : null;
  const copy = async () => (d && (await copyText(d.link)) ? message.success(t('payByLink:copySuccess')) : message.error(t('payByLink:copyFailed')));
  return (
    <PageContainer back card={false} extra={qr}>
      {isPending || !d ? (
        isError ? (
          <Alert type="error" showIcon title={t('detail.loadFailed')} />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )
      ) : (
        <Flex vertical gap={16}>
          <Card title={t('detail.title')} variant="borderless">
            <Descriptions column={{ xs: 1, sm: 1, md: 2, xxl: 3 }} bordered size="small" data-testid="pis-descriptions">
              <Descriptions.Item label={t('detail.status')}>
                <Space size={4} wrap>
                  <PblStatusTag status={d.status} openStatus={d.openStatus} />
                  {d.closeReason && <Typography.Text type="secondary">{t(`payByLink:closeReason.${d.closeReason}`)}</Typography.Text>}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.orderno')}>{d.orderno}</Descriptions.Item>
              <Descriptions.Item label={t('detail.createTime')}>{formatPlatform(d.createTime)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.merchant')}>{`${d.merId} - ${d.merName}`}</Descriptions.Item>
              <Descriptions.Item label={t('detail.store')}>{`${d.storeName} (${d.storeId})`}</Descriptions.Item>
              <Descriptions.Item label={t('detail.qrType')}>
                <Tag>{t(`qrType.${d.qrType}`)}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.goods')}>{d.goodsName}</Descriptions.Item>
              <Descriptions.Item label={t('detail.amount')}>
                <span style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatAmount(d.totalAmount, d.orderCurrency, i18n.language)} <Typography.Text type="secondary">{d.orderCurrency}</Typography.Text>
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('detail.paymentBrand')}>{d.paymentBrand ? brandName(d.paymentBrand) : ''}</Descriptions.Item>
              <Descriptions.Item label={t('detail.createdBy')}>{d.createdBy ?? t('detail.buyer')}</Descriptions.Item>
              <Descriptions.Item label={t('detail.expireTime')}>{formatPlatform(d.expireTime)}</Descriptions.Item>
              {d.paidTime && <Descriptions.Item label={t('detail.paidTime')}>{formatPlatform(d.paidTime)}</Descriptions.Item>}
              {d.closeTime && <Descriptions.Item label={t('detail.closeTime')}>{formatPlatform(d.closeTime)}</Descriptions.Item>}
              {d.txnId && canTxn && (
                <Descriptions.Item label={t('detail.transaction')}>
                  <Link to={`/txn/detail/${d.txnId}`}>{t('action.viewTxn')}</Link>
                </Descriptions.Item>
              )}
              <Descriptions.Item label={t('detail.payLink')} span="filled">
                <Space size={4} align="start">
                  <Typography.Text style={{ wordBreak: 'break-all' }} data-testid="pis-link">
                    {d.link}
                  </Typography.Text>
                  <Button size="small" icon={<CopyOutlined />} onClick={copy} aria-label={t('action.copyLink')} />
                </Space>
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <ActivityTimeline items={d.activity} />
        </Flex>
      )}
      {flow.dialogs}
    </PageContainer>
  );
}
