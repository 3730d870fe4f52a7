import { useEffect } from 'react';
import { Alert, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { PBL_DEFAULT_VALID_DAYS, type PayByLinkAddResult, type PayByLinkOrder } from '@portal/contract';
import { RequestError } from '../../../lib/http';
import { usePblOptions } from '../api/files';
import { useAddOrder, useUpdateOrder } from '../api/order-mutations';
import { formFieldOf, keepAmountsConsistent, toWireForm, type OrderFormValues } from '../pbl-form';
import { OrderFormFields } from './order-form-fields';
import { useApp } from '../../../app/lazy-app';

const fromOrder = (o: PayByLinkOrder): OrderFormValues => ({
  reconId: o.reconId,
  orderCurrency: o.orderCurrency,
  totalAmount: o.totalAmount,
  goodsName: o.goodsName,
  goodsPrice: o.goodsPrice,
  goodsQuantity: String(o.goodsQuantity),
  logFee: o.logFee,
  remarks: o.remarks ?? '',
  buyerEmail: o.buyerEmail ?? '',
  sendEmailChecked: o.sendEmailChecked,
  file: o.attachment && o.fileName ? { attachment: o.attachment, fileName: o.fileName } : null,
  validDays: null,
});

export interface OrderFormDialogProps {
  open: boolean;
  /** Modify this order; create a new one when absent. */
  order?: PayByLinkOrder | null;
  onClose: () => void;
  onCreated?: (r: PayByLinkAddResult, v: OrderFormValues) => void;
  onUpdated?: (o: PayByLinkOrder) => void;
}

/** Create order / Modify order (spec §2, §4, §5). Server field errors land under their fields. */
const NO_CURRENCIES: string[] = [];

export function OrderFormDialog({ open, order, onClose, onCreated, onUpdated }: OrderFormDialogProps) {
  const { t } = useTranslation('payByLink');
  const { message } = useApp();
  const [form] = Form.useForm<OrderFormValues>();
  const mode = order ? 'update' : 'create';
  const options = usePblOptions(open);
  const add = useAddOrder();
  const update = useUpdateOrder();
  const currencies = options.data?.currencies ?? NO_CURRENCIES;

  // Opening the dialog starts from the order (update) or from the defaults (create)…
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(order ? fromOrder(order) : { goodsQuantity: '1', logFee: '0', sendEmailChecked: false, validDays: PBL_DEFAULT_VALID_DAYS });
  }, [open, order, form]);
  // …and the defaults that come with the options (first currency, validity) fill in when they
  // arrive, leaving alone what the person has already chosen or typed (a slow answer, or one
  // delayed by a token refresh, used to reset the whole form under their hands).
  useEffect(() => {
    if (!open || order || !options.data) return;
    const patch: Partial<OrderFormValues> = {};
    if (!form.isFieldTouched('orderCurrency') && !form.getFieldValue('orderCurrency')) patch.orderCurrency = options.data.currencies[0];
    if (!form.isFieldTouched('validDays')) patch.validDays = options.data.defaultValidDays ?? PBL_DEFAULT_VALID_DAYS;
    form.setFieldsValue(patch);
    if (patch.orderCurrency) keepAmountsConsistent(form, { orderCurrency: patch.orderCurrency });
  }, [open, order, form, options.data]);

  const mailNotice = (status: string | null | undefined, email: string) => {
    if (status === 'failed') message.warning({ content: t('emailFailed', { email }), duration: 10 });
    else if (status === 'sent') message.success(t('emailSent', { email }));
  };

  const submit = async () => {
    let v: OrderFormValues;
    try {
      v = await form.validateFields();
    } catch {
      return; // the fields show their errors (scrollToFirstError brings the first into view)
    }
    const all = form.getFieldsValue(true) as OrderFormValues;
    try {
      if (order) {
        const o = await update.mutateAsync(toWireForm({ ...all, ...v }, order.id));
        // Spec §4: openStatus '00' (processing) answers with the order tip, otherwise 'update success'.
        if (o.openStatus === '00') message.error(t('orderTips'));
        else message.success(t('updateTips'));
        if (all.sendEmailChecked) mailNotice(o.emailStatus, o.buyerEmail ?? '');
        onUpdated?.(o);
      } else {
        const r = await add.mutateAsync(toWireForm({ ...all, ...v }));
        mailNotice(r.emailStatus === 'none' ? null : r.emailStatus, String(all.buyerEmail ?? ''));
        onCreated?.(r, all);
      }
    } catch (e) {
      const err = e as RequestError;
      const errors = (err.data as { errors?: { field: string; message: string }[] } | null)?.errors;
      if (errors?.length) form.setFields(errors.map((x) => ({ name: formFieldOf(x.field), errors: [x.message] })));
      message.error(err.message || t('uploadError'));
    }
  };

  return (
    <Modal
      open={open}
      title={t(order ? 'form.modifyTitle' : 'form.createTitle')}
      width={720}
      okText={t('form.submit')}
      cancelText={t('form.cancel')}
      confirmLoading={add.isPending || update.isPending}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      {order && <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('form.readOnly')} />}
      <Form
        form={form}
        name="pblOrder"
        layout="vertical"
        requiredMark
        scrollToFirstError={{ focus: true }}
        onValuesChange={(changed: Partial<OrderFormValues>) => keepAmountsConsistent(form, changed)}
      >
        <OrderFormFields form={form} mode={mode} currencies={currencies} expireTime={order?.expireTime} />
      </Form>
    </Modal>
  );
}
