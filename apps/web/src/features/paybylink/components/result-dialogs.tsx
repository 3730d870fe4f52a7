import { Button, Modal, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** 'Payment Successful' with the order number and invoice id, Done button (spec §2). */
export function SuccessDialog({ order, onDone }: { order: { orderno: string; reconId: string } | null; onDone: () => void }) {
  const { t } = useTranslation('payByLink');
  return (
    <Modal open={!!order} footer={null} closable={false} centered width={440} destroyOnHidden>
      {order && (
        <Result
          status="success"
          title={t('result.successTitle')}
          subTitle={
            <>
              <div>{t('result.orderNo', { orderNo: order.orderno })}</div>
              {order.reconId && <div>{t('result.reconId', { reconId: order.reconId })}</div>}
            </>
          }
          extra={
            <Button type="primary" onClick={onDone}>
              {t('result.done')}
            </Button>
          }
        />
      )}
    </Modal>
  );
}

/** 'Payment Failed', sub-title 'Order close', Close button (spec §2). */
export function FailureDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('payByLink');
  return (
    <Modal open={open} footer={null} closable={false} centered width={440} destroyOnHidden>
      <Result status="error" title={t('result.failureTitle')} subTitle={t('result.failureSub')} extra={<Button onClick={onClose}>{t('result.close')}</Button>} />
    </Modal>
  );
}
