import { useState } from 'react';
import { Alert, Button, Flex, Modal, QRCode, Space, Table, Tag, Typography } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { LIMITS, type Store } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { useStores } from './api/stores';

/** The store's static QR: the buyer scans it, enters the amount and pays (a printed sign at the counter). */
function StaticQrDialog({ store, onClose }: { store: Store | null; onClose: () => void }) {
  const { t } = useTranslation('payInStore');
  return (
    <Modal open={!!store} title={t('stores.staticQr')} footer={null} onCancel={onClose} width={440} centered destroyOnHidden>
      {store?.staticLink && (
        <Flex vertical align="center" gap={8} data-testid="static-qr">
          <Typography.Title level={5} style={{ margin: 0 }}>
            {store.merName}
          </Typography.Title>
          <Typography.Text type="secondary">{store.storeName}</Typography.Text>
          <QRCode value={store.staticLink} size={LIMITS.qrSize} bordered errorLevel="M" />
          <Typography.Text strong>{t('stores.staticHint')}</Typography.Text>
          <div style={{ display: 'grid', gridTemplateColumns: `repeat(${LIMITS.logosPerRow}, 70px)`, gap: 8, justifyContent: 'center' }}>
            {store.methods.map((m) => (
              <img key={m.code} src={m.logo} alt={m.name} title={m.name} width={70} height={28} />
            ))}
          </div>
          <Typography.Text copyable={{ text: store.staticLink }} type="secondary" style={{ fontSize: 12, wordBreak: 'break-all', textAlign: 'center' }}>
            {store.staticLink}
          </Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}

/** /payInStore/store: the stores of the caller's merchants (id, name, address, enabled brands), each one's static QR. */
export function StoreListPage() {
  const { t } = useTranslation('payInStore');
  const stores = useStores();
  const [qr, setQr] = useState<Store | null>(null);
  const columns: ColumnsType<Store> = [
    { title: t('stores.storeId'), dataIndex: 'storeId', width: 110 },
    { title: t('stores.storeName'), dataIndex: 'storeName', width: 200 },
    { title: t('stores.merchant'), key: 'merchant', width: 220, render: (_, s) => `${s.merId} - ${s.merName}` },
    { title: t('stores.address'), dataIndex: 'address', ellipsis: true },
    {
      title: t('stores.brands'),
      key: 'brands',
      width: 260,
      render: (_, s) =>
        s.enabled ? (
          <Flex wrap gap={4}>
            {s.methods.map((m) => (
              <img key={m.code} src={m.logo} alt={m.name} title={m.name} width={50} height={20} />
            ))}
          </Flex>
        ) : (
          <Tag color="warning">{t('notEnabled')}</Tag>
        ),
    },
    { title: t('stores.cashiers'), dataIndex: 'cashiers', width: 90, align: 'right' },
    {
      title: t('column.operations'),
      key: 'op',
      width: 140,
      fixed: 'right',
      render: (_, s) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<QrcodeOutlined />} disabled={!s.enabled} onClick={() => setQr(s)}>
            {t('stores.staticQr')}
          </Button>
        </Space>
      ),
    },
  ];
  return (
    <PageContainer>
      {stores.data && !stores.data.some((s) => s.enabled) && <Alert type="warning" showIcon title={t('notEnabled')} style={{ marginBottom: 16 }} />}
      <Table<Store> rowKey="storeId" size="middle" columns={columns} dataSource={stores.data ?? []} loading={stores.isFetching} scroll={{ x: 1200 }} pagination={false} />
      <StaticQrDialog store={qr} onClose={() => setQr(null)} />
    </PageContainer>
  );
}
