import { Alert, Button, Flex, Skeleton } from 'antd';
import { QrcodeOutlined } from '@ant-design/icons';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { canShowPblQr } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { NotFoundResult } from '../errors/not-found-result';
import { usePblDetail } from './api/get-pbl-detail';
import { ActivityTimeline, OrderDescriptions } from './components/detail-blocks';
import { usePblFlow } from './use-pbl-flow';

/** /payByLink/detail/{id} (spec §2): descriptions, bill file, pay link, QR button while status '04', timeline, Return. */
export function PblDetailPage() {
  const { t } = useTranslation('payByLink');
  const { id = '' } = useParams();
  const { data, isPending, isError, error } = usePblDetail(id, /^\d+$/.test(id));
  const flow = usePblFlow();
  if (!/^\d+$/.test(id) || (isError && [404, 400].includes((error as { code?: number })?.code ?? 0))) return <NotFoundResult />;
  const qr =
    data && canShowPblQr(data) ? (
      <Button
        type="primary"
        icon={<QrcodeOutlined />}
        onClick={() => flow.openQr({ orderno: data.orderno, reconId: data.reconId, merName: data.merName, orderCurrency: data.orderCurrency, totalAmount: data.totalAmount, link: data.link })}
      >
        {t('action.showQr')}
      </Button>
    ) : null;
  return (
    <PageContainer back card={false} extra={qr}>
      {isPending || !data ? (
        isError ? (
          <Alert type="error" showIcon title={t('detail.loadFailed')} />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )
      ) : (
        <Flex vertical gap={16}>
          <OrderDescriptions d={data} />
          <ActivityTimeline items={data.activity} />
        </Flex>
      )}
      {flow.dialogs}
    </PageContainer>
  );
}
