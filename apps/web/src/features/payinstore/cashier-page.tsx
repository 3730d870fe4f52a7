import { useEffect, useRef, useState } from 'react';
import { Button, Flex, Modal, QRCode, Select, Table, Typography } from 'antd';
import { DisconnectOutlined, QrcodeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS, type Cashier } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { formatPlatform } from '../../lib/time';
import { getBindQr, useCashiers, useUnbind } from './api/cashiers';
import { useStores } from './api/stores';
import { useApp } from '../../app/lazy-app';

/** "Bind a cashier": the QR of WeChat's authorisation; the list is checked every 3 s until a new cashier appears. */
function BindDialog({ storeId, storeName, known, onClose }: { storeId: string | null; storeName: string; known: string[]; onClose: () => void }) {
  const { t } = useTranslation('payInStore');
  const { message } = useApp();
  const [url, setUrl] = useState<string | null>(null);
  const cashiers = useCashiers(storeId ?? undefined, storeId ? LIMITS.qrPollMs : undefined);
  const knownRef = useRef(known);
  useEffect(() => {
    // oxlint-disable-next-line react/set-state-in-effect -- the old store's QR goes while this effect fetches the new one
    setUrl(null);
    knownRef.current = known;
    if (storeId) getBindQr(storeId).then((r) => setUrl(r.url), onClose);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storeId]);
  useEffect(() => {
    const added = (cashiers.data ?? []).find((c) => !knownRef.current.includes(c.cashierId));
    if (storeId && added) {
      message.success(t('cashier.bound', { name: added.wechatName }));
      onClose();
    }
  }, [cashiers.data, storeId, message, t, onClose]);
  return (
    <Modal open={!!storeId} title={t('cashier.bindTitle')} footer={null} onCancel={onClose} width={420} centered destroyOnHidden>
      <Flex vertical align="center" gap={8} data-testid="bind-qr">
        <Typography.Text type="secondary">{storeName}</Typography.Text>
        {url ? <QRCode value={url} size={LIMITS.qrSize} bordered errorLevel="M" /> : <QRCode value="-" status="loading" size={LIMITS.qrSize} />}
        <Typography.Text strong>{t('cashier.bindHint')}</Typography.Text>
        <Typography.Text type="secondary" style={{ textAlign: 'center' }}>
          {t('cashier.bindNote')}
        </Typography.Text>
        {url && (
          <Typography.Link href={url} target="_blank" rel="noreferrer" data-testid="bind-link" style={{ fontSize: 12 }}>
            {t('cashier.openLink')}
          </Typography.Link>
        )}
      </Flex>
    </Modal>
  );
}

/** /payInStore/cashier: a store's cashiers (cashierId, WeChat name, binding date), bind by QR, unbind. */
export function CashierPage() {
  const { t } = useTranslation('payInStore');
  const { modal, message } = useApp();
  const [params, setParams] = useSearchParams();
  const stores = useStores();
  const storeId = params.get('storeId') ?? stores.data?.[0]?.storeId;
  const store = stores.data?.find((s) => s.storeId === storeId);
  const cashiers = useCashiers(storeId);
  const unbind = useUnbind();
  const [binding, setBinding] = useState<string | null>(null);

  const confirmUnbind = (c: Cashier) =>
    modal.confirm({
      title: t('cashier.unbindTitle'),
      content: t('cashier.unbindContent', { name: c.wechatName, store: c.storeName }),
      okText: t('cashier.unbind'),
      cancelText: t('form.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await unbind.mutateAsync(c.cashierId);
        message.success(t('cashier.unbound', { name: c.wechatName }));
      },
    });

  const columns: ColumnsType<Cashier> = [
    { title: t('cashier.cashierId'), dataIndex: 'cashierId', width: 130 },
    { title: t('cashier.wechatName'), dataIndex: 'wechatName' },
    { title: t('cashier.bindTime'), dataIndex: 'bindTime', width: 180, render: (v: string) => formatPlatform(v) },
    { title: t('cashier.boundBy'), dataIndex: 'boundBy', width: 140, render: (v: string | null) => v ?? '' },
    {
      title: t('column.operations'),
      key: 'op',
      width: 120,
      fixed: 'right',
      render: (_, c) => (
        <Button type="link" size="small" danger icon={<DisconnectOutlined />} onClick={() => confirmUnbind(c)}>
          {t('cashier.unbind')}
        </Button>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button type="primary" icon={<QrcodeOutlined />} disabled={!store} onClick={() => storeId && setBinding(storeId)}>
          {t('cashier.bind')}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <Flex gap={8} align="center" wrap>
          <label htmlFor="cashier-store">{t('filter.store')}</label>
          <Select
            id="cashier-store"
            aria-label={t('filter.store')}
            style={{ minWidth: 260, maxWidth: '100%' }}
            value={storeId}
            loading={stores.isPending}
            onChange={(v) => setParams({ storeId: v })}
            options={(stores.data ?? []).map((s) => ({ value: s.storeId, label: `${s.storeName} (${s.storeId})` }))}
          />
        </Flex>
        <Table<Cashier> rowKey="cashierId" size="middle" columns={columns} dataSource={cashiers.data ?? []} loading={cashiers.isFetching && !binding} scroll={{ x: 700 }} pagination={false} />
      </Flex>
      <BindDialog storeId={binding} storeName={store?.storeName ?? ''} known={(cashiers.data ?? []).map((c) => c.cashierId)} onClose={() => setBinding(null)} />
    </PageContainer>
  );
}
