import { Alert, Button, Flex, Skeleton } from 'antd';
import { RollbackOutlined, SyncOutlined } from '@ant-design/icons';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Perm, resultStateOf, type TxnDetail } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { Can } from '../../components/can';
import { NotFoundResult } from '../errors/not-found-result';
import { useTxnDetail } from './api/get-txn-detail';
import { useQueryResult } from './api/query-result';
import { useRefundDialogs } from './components/refund-dialogs';
import { AssociatedOrders, MainInfo, MoreInfo, ShippingInfo } from './components/txn-detail-blocks';

function Actions({ d }: { d: TxnDetail }) {
  const { t } = useTranslation('txn');
  const { open, dialogs, canRefund } = useRefundDialogs(d);
  const query = useQueryResult();
  return (
    <>
      {resultStateOf(d.gwResponse) === 'P' && (
        <Can permission={Perm.txnQueryResult}>
          <Button icon={<SyncOutlined />} loading={query.isPending} onClick={() => query.mutate(d.id)}>
            {t('action.queryResult')}
          </Button>
        </Can>
      )}
      {canRefund && (
        <Can permission={Perm.txnRefund}>
          <Button type="primary" danger icon={<RollbackOutlined />} onClick={open}>
            {t('action.refund')}
          </Button>
        </Can>
      )}
      {dialogs}
    </>
  );
}

/** /txn/detail/{id}: every block of spec §2, refund and query-result actions, Return button. */
export function TxnDetailPage() {
  const { t } = useTranslation('txn');
  const { id = '' } = useParams();
  const { data, isPending, isError, error } = useTxnDetail(id);
  if (isError && [404, 400].includes((error as { code?: number })?.code ?? 0)) return <NotFoundResult />;
  return (
    <PageContainer back card={false} extra={data ? <Actions d={data} /> : null}>
      {isPending || !data ? (
        isError ? (
          <Alert type="error" showIcon title={t('detail.loadFailed')} />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )
      ) : (
        <Flex vertical gap={16}>
          <MainInfo d={data} />
          <AssociatedOrders d={data} />
          <MoreInfo d={data} />
          <ShippingInfo d={data} />
        </Flex>
      )}
    </PageContainer>
  );
}
