import { useEffect, useRef } from 'react';
import AntdProviders from '../../app/providers';
import { useStores } from '../payinstore/api/stores';
import { usePisFlow } from '../payinstore/use-pis-flow';

/** Opens the pay-in-store flow (new order → QR → result) each time `request` goes up, once the stores are in. */
function OrderFlow({ request }: { request: number }) {
  const stores = useStores();
  const flow = usePisFlow(stores.data ?? []);
  const opened = useRef(0);
  useEffect(() => {
    if (!stores.data || opened.current === request) return;
    opened.current = request;
    flow.openCreate();
  }, [request, stores.data, flow]);
  return flow.dialogs;
}

/**
 * The phone home screen's "new in-store order": the full portal's own dialogs (features/payinstore),
 * with antd's providers, loaded only when the button is first pressed (decision 042).
 */
export default function PhoneOrder({ request }: { request: number }) {
  return (
    <AntdProviders>
      <OrderFlow request={request} />
    </AntdProviders>
  );
}
