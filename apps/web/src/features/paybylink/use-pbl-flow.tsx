import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PayByLinkAddResult, PayByLinkOrder } from '@portal/contract';
import { useUser } from '../../lib/session';
import { closeOrder, useInvalidatePbl } from './api/order-mutations';
import { getPblDetail } from './api/get-pbl-detail';
import { ConfirmDialog } from './components/confirm-dialog';
import { OrderFormDialog } from './components/order-form-dialog';
import { QrDialog, type QrOrder } from './components/qr-dialog';
import { FailureDialog, SuccessDialog } from './components/result-dialogs';
import type { OrderFormValues } from './pbl-form';
import { useApp } from '../../app/lazy-app';

/**
 * The pay-by-link dialogs and their sequence (spec §2, §4): create → order confirmation → QR →
 * success / failure; modify; close with its confirm. Every change reloads the orders.
 */
export function usePblFlow() {
  const { t } = useTranslation('payByLink');
  const { message, modal } = useApp();
  const user = useUser();
  const invalidate = useInvalidatePbl();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<PayByLinkOrder | null>(null);
  const [created, setCreated] = useState<(PayByLinkAddResult & { qr: QrOrder }) | null>(null);
  const [qr, setQr] = useState<QrOrder | null>(null);
  const [paid, setPaid] = useState<QrOrder | null>(null);
  const [failed, setFailed] = useState(false);

  const onCreated = (r: PayByLinkAddResult, v: OrderFormValues) => {
    setFormOpen(false);
    setCreated({
      ...r,
      qr: { orderno: r.orderNo, reconId: v.reconId ?? '', merName: user.merName, orderCurrency: v.orderCurrency ?? '', totalAmount: v.totalAmount ?? '', link: r.payByLink },
    });
  };

  const onResult = (status: '00' | '01', o: QrOrder) => {
    setQr(null);
    if (status === '00') setPaid(o);
    else setFailed(true);
    void invalidate();
  };

  const openUpdate = async (id: number) => {
    try {
      setEditing(await getPblDetail(id));
      setFormOpen(true);
    } catch {
      /* the request client showed the error */
    }
  };

  const confirmClose = (row: { id: number; orderno: string }) =>
    modal.confirm({
      title: t('closeConfirm.title'),
      content: t('closeConfirm.content', { orderNo: row.orderno }),
      okText: t('closeConfirm.ok'),
      cancelText: t('closeConfirm.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const data = await closeOrder(row.id);
          if (data === '01') message.error(t('orderTips'));
          else message.success(t('closeMsg'));
        } finally {
          void invalidate();
        }
      },
      onCancel: () => {
        message.info(t('failed'));
      },
    });

  const dialogs = (
    <>
      <OrderFormDialog
        open={formOpen}
        order={editing}
        onClose={() => setFormOpen(false)}
        onCreated={onCreated}
        onUpdated={() => {
          setFormOpen(false);
          setEditing(null);
        }}
      />
      <ConfirmDialog
        created={created}
        onClose={() => setCreated(null)}
        onShowQr={() => {
          if (created) setQr(created.qr);
          setCreated(null);
        }}
      />
      <QrDialog
        order={qr}
        onResult={onResult}
        onClose={() => {
          setQr(null);
          void invalidate();
        }}
      />
      <SuccessDialog order={paid} onDone={() => setPaid(null)} />
      <FailureDialog open={failed} onClose={() => setFailed(false)} />
    </>
  );

  return {
    dialogs,
    openCreate: () => {
      setEditing(null);
      setFormOpen(true);
    },
    openUpdate,
    openQr: setQr,
    confirmClose,
  };
}
