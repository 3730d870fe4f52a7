import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Store } from '@portal/contract';
import { QrDialog, type QrOrder } from '../paybylink/components/qr-dialog';
import { FailureDialog, SuccessDialog } from '../paybylink/components/result-dialogs';
import { getPisStatus, useInvalidatePis } from './api/orders';
import { useLogoList } from './api/stores';
import { CreatePisDialog } from './components/create-dialog';
import { useApp } from '../../app/lazy-app';

export type PisQr = QrOrder & { storeId: string };

/**
 * The in-store dialogs: new order → the dynamic QR (the buyer scans and pays on the hosted
 * checkout) with the same 3-second polling as pay by link → success / failure. A caller without
 * any enabled store gets 'You have not enabled this function, please contact sales'.
 */
export function usePisFlow(stores: Store[]) {
  const { t } = useTranslation('payInStore');
  const { modal } = useApp();
  const invalidate = useInvalidatePis();
  const [formOpen, setFormOpen] = useState(false);
  const [qr, setQr] = useState<PisQr | null>(null);
  const [paid, setPaid] = useState<QrOrder | null>(null);
  const [failed, setFailed] = useState(false);
  const logos = useLogoList(qr?.storeId ?? '', qr?.orderCurrency ?? '');

  const openCreate = () => {
    if (!stores.some((s) => s.enabled)) {
      modal.warning({ title: t('notEnabled'), okText: t('form.ok') });
      return;
    }
    setFormOpen(true);
  };

  const dialogs = (
    <>
      <CreatePisDialog
        open={formOpen}
        stores={stores}
        onClose={() => setFormOpen(false)}
        onCreated={(r, v) => {
          setFormOpen(false);
          const s = stores.find((x) => x.storeId === v.storeId);
          setQr({ orderno: r.orderNo, reconId: '', merName: s?.merName ?? '', subtitle: s?.storeName, orderCurrency: v.orderCurrency, totalAmount: v.totalAmount, link: r.link, storeId: v.storeId });
        }}
      />
      <QrDialog
        order={qr}
        methods={logos}
        fetchStatus={getPisStatus}
        showLink
        onResult={(status, o) => {
          setQr(null);
          if (status === '00') setPaid(o);
          else setFailed(true);
          void invalidate();
        }}
        onClose={() => {
          setQr(null);
          void invalidate();
        }}
      />
      <SuccessDialog order={paid} onDone={() => setPaid(null)} />
      <FailureDialog open={failed} onClose={() => setFailed(false)} />
    </>
  );
  return { dialogs, openCreate, openQr: setQr };
}
