import { Button, Card, Descriptions, Space, Tag, Timeline, Typography } from 'antd';
import { CopyOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PBL_PROD_CATEGORY, Perm, brandName, type PayByLinkActivity, type PayByLinkDetail } from '@portal/contract';
import { formatAmount } from '../../../components/money';
import { useCan } from '../../../components/can';
import { formatPlatform } from '../../../lib/time';
import { downloadAttachment } from '../api/files';
import { copyText } from '../copy-text';
import { PblStatusTag } from './pbl-status-tag';
import { useApp } from '../../../app/lazy-app';

const money = (v: string, cur: string, lang: string) => (
  <span style={{ fontVariantNumeric: 'tabular-nums' }}>
    {formatAmount(v, cur, lang)} <Typography.Text type="secondary">{cur}</Typography.Text>
  </span>
);

/** Every descriptions item of spec §2's detail, plus expiry, e-mail result and the transaction. */
export function OrderDescriptions({ d }: { d: PayByLinkDetail }) {
  const { t, i18n } = useTranslation('payByLink');
  const { message } = useApp();
  const canTxn = useCan(Perm.txnDetail);
  const copy = async () => ((await copyText(d.link)) ? message.success(t('copySuccess')) : message.error(t('copyFailed')));
  const scenario = d.prodCategory === PBL_PROD_CATEGORY ? t('scenario.paybylink') : t('scenario.other', { name: d.prodCategory });
  return (
    <Card title={t('detail.title')} variant="borderless">
      <Descriptions column={{ xs: 1, sm: 1, md: 2, xxl: 3 }} bordered size="small" data-testid="pbl-descriptions">
        <Descriptions.Item label={t('detail.status')}>
          <Space size={4} wrap>
            <PblStatusTag status={d.status} openStatus={d.openStatus} />
            {d.closeReason && <Typography.Text type="secondary">{t(`closeReason.${d.closeReason}`)}</Typography.Text>}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.orderno')}>{d.orderno}</Descriptions.Item>
        <Descriptions.Item label={t('detail.createTime')}>{formatPlatform(d.createTime)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.merName')}>{d.merName}</Descriptions.Item>
        <Descriptions.Item label={t('detail.reconId')}>{d.reconId}</Descriptions.Item>
        <Descriptions.Item label={t('detail.orderCurrency')}>{d.orderCurrency}</Descriptions.Item>
        <Descriptions.Item label={t('detail.goodsName')}>{d.goodsName}</Descriptions.Item>
        <Descriptions.Item label={t('detail.goodsPrice')}>{money(d.goodsPrice, d.orderCurrency, i18n.language)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.goodsQuantity')}>{d.goodsQuantity}</Descriptions.Item>
        <Descriptions.Item label={t('detail.logFee')}>{money(d.logFee, d.orderCurrency, i18n.language)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.totalAmount')}>{money(d.totalAmount, d.orderCurrency, i18n.language)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.remarks')}>{d.remarks ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('detail.buyerEmail')}>{d.buyerEmail ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('detail.scenario')}>{scenario}</Descriptions.Item>
        {d.sendEmailChecked && (
          <Descriptions.Item label={t('detail.billFile')}>
            {d.attachment ? (
              <Space size={4}>
                <Typography.Text>{d.fileName}</Typography.Text>
                <Button size="small" icon={<EyeOutlined />} onClick={() => void downloadAttachment(d.attachment!).catch(() => undefined)}>
                  {t('action.view')}
                </Button>
              </Space>
            ) : null}
          </Descriptions.Item>
        )}
        {d.sendEmailChecked && (
          <Descriptions.Item label={t('detail.emailStatus')}>
            <Tag color={d.emailStatus === 'failed' ? 'error' : d.emailStatus === 'sent' ? 'success' : 'default'}>{t(`emailStatus.${d.emailStatus ?? 'none'}`)}</Tag>
          </Descriptions.Item>
        )}
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
            <Typography.Text style={{ wordBreak: 'break-all' }} data-testid="pbl-link">
              {d.link}
            </Typography.Text>
            <Button size="small" icon={<CopyOutlined />} onClick={copy} aria-label={t('action.copyLink')} />
          </Space>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

function activityText(a: PayByLinkActivity, t: (k: string, o?: Record<string, unknown>) => string): string {
  const d = a.detail as Record<string, string | null | undefined>;
  const method = d.brand ? brandName(d.brand) : '';
  switch (a.kind) {
    case 'payment':
      return d.result === 'success'
        ? t('activity.paymentSuccess', { method })
        : d.result === 'failed'
          ? t('activity.paymentFailed', { method, msg: d.respMsg ?? '' })
          : t('activity.paymentPending', { method });
    case 'emailed':
    case 'emailFailed':
      return t(`activity.${a.kind}`, { to: d.to ?? '', error: d.error ?? '' });
    default:
      return t(`activity.${a.kind}`, { actor: a.actor ?? '' });
  }
}

const COLOR: Record<string, string> = { created: 'blue', updated: 'blue', emailed: 'green', emailFailed: 'red', opened: 'gray', closed: 'gray', expired: 'gray' };

/** The order's timeline: created, e-mailed, opened by the buyer, payment attempts, closed / expired. */
export function ActivityTimeline({ items }: { items: PayByLinkActivity[] }) {
  const { t } = useTranslation('payByLink');
  return (
    <Card title={t('activity.title')} variant="borderless">
      <Timeline
        data-testid="pbl-activity"
        items={items.map((a, i) => ({
          key: i,
          color: a.kind === 'payment' ? ((a.detail as { result?: string }).result === 'success' ? 'green' : (a.detail as { result?: string }).result === 'failed' ? 'red' : 'blue') : COLOR[a.kind],
          title: formatPlatform(a.time),
          content: activityText(a, t),
        }))}
      />
    </Card>
  );
}
