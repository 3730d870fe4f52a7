import { Checkbox, Col, Form, Input, Row, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { PBL_VALID_DAY_CHOICES } from '@portal/contract';
import { formatPlatform } from '../../../lib/time';
import { charCount } from '../../../lib/char-count';
import { pblRule, type OrderFormValues } from '../pbl-form';
import { AttachmentUpload } from './attachment-upload';
import { useApp } from '../../../app/lazy-app';

/**
 * The fields of the create / modify dialog (spec §5): the shared rules on every field; in modify,
 * invoice id, currency, e-mail, remarks and goods name are read-only. Amount inputs carry no
 * currency symbol.
 */
export function OrderFormFields({ form, mode, currencies, expireTime }: { form: FormInstance<OrderFormValues>; mode: 'create' | 'update'; currencies: string[]; expireTime?: string }) {
  const { t } = useTranslation('payByLink');
  const { message } = useApp();
  const rule = (f: Parameters<typeof pblRule>[1]) => [pblRule(form, f, mode, t)];
  const ro = mode === 'update';
  const amount = { inputMode: 'decimal' as const, autoComplete: 'off', maxLength: 20 };
  const half = { xs: 24, sm: 12 };

  return (
    <Row gutter={16}>
      <Col {...half}>
        <Form.Item name="reconId" label={t('form.reconId')} required={!ro} rules={ro ? [] : rule('reconId')}>
          <Input count={charCount(64)} disabled={ro} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="orderCurrency" label={t('form.orderCurrency')} required={!ro} rules={ro ? [] : rule('orderCurrency')}>
          <Select disabled={ro} options={currencies.map((c) => ({ value: c, label: c }))} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="totalAmount" label={t('form.totalAmount')} required rules={rule('totalAmount')} dependencies={['orderCurrency', 'goodsPrice', 'goodsQuantity', 'logFee']}>
          <Input {...amount} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="goodsName" label={t('form.goodsName')} required={!ro} rules={ro ? [] : rule('goodsName')}>
          <Input count={charCount(128)} disabled={ro} />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name="goodsPrice" label={t('form.goodsPrice')} required rules={rule('goodsPrice')} dependencies={['orderCurrency', 'totalAmount']}>
          <Input {...amount} />
        </Form.Item>
      </Col>
      <Col xs={12} sm={8}>
        <Form.Item name="goodsQuantity" label={t('form.goodsQuantity')} required rules={rule('goodsQuantity')}>
          <Input inputMode="numeric" maxLength={7} autoComplete="off" />
        </Form.Item>
      </Col>
      <Col xs={12} sm={8}>
        <Form.Item name="logFee" label={t('form.logFee')} rules={rule('logFee')} dependencies={['orderCurrency']}>
          <Input {...amount} />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="buyerEmail" label={t('form.buyerEmail')} rules={ro ? [] : rule('buyerEmail')} dependencies={['sendEmailChecked']}>
          <Input type="email" count={charCount(254)} disabled={ro} autoComplete="off" />
        </Form.Item>
      </Col>
      <Col {...half}>
        <Form.Item name="validDays" label={t('form.validDays')}>
          <Select
            allowClear={ro}
            placeholder={ro && expireTime ? t('form.keepValidity', { time: formatPlatform(expireTime) }) : undefined}
            options={PBL_VALID_DAY_CHOICES.map((d) => ({ value: d, label: t('form.days', { count: d }) }))}
          />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="remarks" label={t('form.remarks')} rules={ro ? [] : rule('remarks')}>
          <Input.TextArea count={charCount(256)} rows={2} disabled={ro} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="sendEmailChecked" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox
            onChange={(e) => {
              // Spec §5: sending needs a buyer e-mail; without one the tip shows and the box is unticked.
              if (e.target.checked && !String(form.getFieldValue('buyerEmail') ?? '').trim()) {
                message.warning(t('rule.inputEmailTips'));
                setTimeout(() => form.setFieldValue('sendEmailChecked', false));
              }
              void form.validateFields(['file']).catch(() => undefined);
            }}
          >
            {t('form.sendEmail')}
          </Checkbox>
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="file" label={t('form.attachment')} rules={[pblRule(form, 'attachment', mode, t)]} dependencies={['sendEmailChecked']}>
          <AttachmentUpload />
        </Form.Item>
      </Col>
    </Row>
  );
}
