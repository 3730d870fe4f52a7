import { useEffect, useMemo } from 'react';
import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Code, checkPayInStoreForm, type PayInStoreAddResult, type Store } from '@portal/contract';
import { RequestError } from '../../../lib/http';
import { useAddPis } from '../api/orders';

export interface PisFormValues {
  storeId?: string;
  orderCurrency?: string;
  totalAmount?: string | number;
  goodsName?: string;
}

/**
 * New in-store order (store, currency, amount, goods). The rules are the server's
 * (checkPayInStoreForm of the contract); server errors land under their fields, and a store
 * without the function gets 'You have not enabled this function, please contact sales'.
 */
export function CreatePisDialog({
  open,
  stores,
  onClose,
  onCreated,
}: {
  open: boolean;
  stores: Store[];
  onClose: () => void;
  onCreated: (r: PayInStoreAddResult, v: Required<Pick<PisFormValues, 'storeId' | 'orderCurrency'>> & { totalAmount: string }) => void;
}) {
  const { t } = useTranslation('payInStore');
  const [form] = Form.useForm<PisFormValues>();
  const add = useAddPis();
  const storeId = Form.useWatch('storeId', form);
  const store = stores.find((s) => s.storeId === storeId);
  const currencies = useMemo(() => store?.currencies ?? [], [store]);
  const usable = stores.filter((s) => s.enabled);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    add.reset();
    const first = usable[0];
    form.setFieldsValue({ storeId: first?.storeId, orderCurrency: first?.currencies[0] });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => {
    if (store && !currencies.includes(form.getFieldValue('orderCurrency'))) form.setFieldValue('orderCurrency', currencies[0]);
  }, [store, currencies, form]);

  const rule = (field: 'storeId' | 'orderCurrency' | 'totalAmount' | 'goodsName') => ({
    validator: async () => {
      const v = form.getFieldsValue(true) as PisFormValues;
      const issue = checkPayInStoreForm({ ...v, totalAmount: v.totalAmount === undefined || v.totalAmount === null ? undefined : String(v.totalAmount) }, { currencies }).find(
        (i) => i.field === field,
      );
      if (issue) throw new Error(t(`rule.${issue.rule}`, issue.params?.n === undefined ? (issue.params ?? {}) : { ...issue.params, count: issue.params.n }));
    },
  });

  const submit = async () => {
    // Field errors are shown under the fields; the rejected promise must not become an uncaught page error.
    const valid = await form.validateFields().then(
      () => true,
      () => false,
    );
    if (!valid) return;
    const v = form.getFieldsValue(true) as PisFormValues;
    const body = { storeId: v.storeId ?? '', orderCurrency: v.orderCurrency ?? '', totalAmount: String(v.totalAmount ?? ''), goodsName: v.goodsName ?? '' };
    try {
      const r = await add.mutateAsync(body);
      onCreated(r, body);
    } catch (e) {
      const err = e as RequestError;
      const errors = (err.data as { errors?: { field: string; message: string }[] } | null)?.errors;
      if (errors?.length) form.setFields(errors.map((x) => ({ name: x.field as keyof PisFormValues, errors: [x.message] })));
    }
  };
  const notEnabled = add.error instanceof RequestError && add.error.code === Code.FUNCTION_NOT_ENABLED ? add.error.message : null;

  return (
    <Modal open={open} title={t('form.title')} onCancel={onClose} onOk={() => void submit()} okText={t('form.submit')} cancelText={t('form.cancel')} confirmLoading={add.isPending} destroyOnHidden>
      {notEnabled && <Alert type="warning" showIcon title={notEnabled} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" name="pisCreate" requiredMark>
        <Form.Item name="storeId" label={t('form.store')} rules={[rule('storeId')]} required>
          <Select
            showSearch
            optionFilterProp="label"
            options={stores.map((s) => ({ value: s.storeId, label: `${s.storeName} (${s.storeId})`, disabled: !s.enabled, title: s.enabled ? undefined : t('notEnabled') }))}
          />
        </Form.Item>
        <Form.Item name="orderCurrency" label={t('form.currency')} rules={[rule('orderCurrency')]} required>
          <Select options={currencies.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        <Form.Item name="totalAmount" label={t('form.amount')} rules={[rule('totalAmount')]} required>
          <InputNumber<string> stringMode min="0" style={{ width: '100%' }} inputMode="decimal" />
        </Form.Item>
        <Form.Item name="goodsName" label={t('form.goods')} rules={[rule('goodsName')]} required>
          <Input maxLength={128} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
