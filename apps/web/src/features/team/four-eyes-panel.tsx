import { useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Select, Skeleton, Space, Switch, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Code, TeamApi } from '@portal/contract';
import { RequestError } from '../../lib/http';
import { useUser } from '../../lib/session';
import { useApp } from '../../app/lazy-app';
import { savePolicy, usePolicy } from './api/approvals';
import { apiKey } from '../../lib/api-query';

const CURRENCIES = ['CNY', 'HKD', 'USD', 'EUR', 'GBP', 'JPY', 'KRW', 'SGD', 'AUD'];

interface Values {
  limits: { currency: string; amount: string }[];
  permissionRaise: boolean;
  bankChange: boolean;
  expiryHours: number;
  approverCooldownDays: number;
}

/** The merchant's four-eyes policy (issue 28), set by its administrators: refund limits per currency, permission raises, expiry. */
export function FourEyesPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation(['approvals', 'team']);
  const { message } = useApp();
  const me = useUser();
  const qc = useQueryClient();
  const policy = usePolicy(me.merId);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      await savePolicy({
        merId: me.merId,
        refundLimits: (v.limits ?? []).map((l) => `${l.currency}:${l.amount.trim()}`),
        permissionRaise: v.permissionRaise,
        bankChange: v.bankChange,
        expiryHours: v.expiryHours,
        approverCooldownDays: v.approverCooldownDays,
      });
      message.success(t('policy.saved'));
      await qc.invalidateQueries({ queryKey: apiKey(TeamApi.approvalPolicy) });
    } catch (e) {
      // Issue 47: loosening a rule waits for a second administrator — the form goes back to what holds.
      if (e instanceof RequestError && e.code === Code.APPROVAL_REQUIRED) {
        message.info(e.message);
        form.resetFields();
        await qc.invalidateQueries({ queryKey: apiKey(TeamApi.approvals) });
        return;
      }
      message.error(e instanceof RequestError ? e.message : t('failed'));
    } finally {
      setSaving(false);
    }
  };

  // The form starts from the stored policy (rendered once it is known, so nothing typed is overwritten by its arrival).
  if (!policy.data) return <Skeleton active />;
  const initial: Values = {
    limits: Object.entries(policy.data.refundLimits).map(([currency, amount]) => ({ currency, amount })),
    permissionRaise: policy.data.permissionRaise,
    bankChange: policy.data.bankChange,
    expiryHours: policy.data.expiryHours,
    approverCooldownDays: policy.data.approverCooldownDays,
  };
  const floor = policy.data.groupFloor;
  const floorLimits = floor
    ? Object.entries(floor.refundLimits)
        .map(([c, a]) => `${c} ${a}`)
        .join(t('listSeparator'))
    : '';
  return (
    <Form<Values> form={form} layout="vertical" name="fourEyes" onFinish={submit} disabled={!canManage} style={{ maxWidth: 640 }} initialValues={initial}>
      <Typography.Paragraph type="secondary">{t('policy.intro')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('policy.loosenHelp')}</Typography.Paragraph>
      {floor && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="group-floor"
          message={t('policy.groupFloor', { limits: floorLimits || t('policy.none'), expiry: floor.expiryHours, days: floor.approverCooldownDays })}
        />
      )}
      <Typography.Text strong>{t('policy.refundLimits')}</Typography.Text>
      <Typography.Paragraph type="secondary">{t('policy.refundLimitsHelp')}</Typography.Paragraph>
      <Form.List name="limits">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f) => (
              <Space key={f.key} align="baseline" wrap>
                <Form.Item name={[f.name, 'currency']} rules={[{ required: true, message: t('team:form.required') }]}>
                  <Select aria-label={t('policy.currency')} style={{ width: 110 }} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
                </Form.Item>
                <Form.Item name={[f.name, 'amount']} rules={[{ required: true, pattern: /^\d{1,12}(\.\d{1,3})?$/, message: t('policy.amountRule') }]}>
                  <Input aria-label={t('policy.amount')} inputMode="decimal" style={{ width: 180 }} />
                </Form.Item>
                <Button type="text" icon={<MinusCircleOutlined />} onClick={() => remove(f.name)} aria-label={t('policy.removeLimit')} />
              </Space>
            ))}
            <Form.Item>
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ currency: 'CNY', amount: '' })}>
                {t('policy.addLimit')}
              </Button>
            </Form.Item>
          </>
        )}
      </Form.List>
      <Form.Item name="permissionRaise" label={t('policy.permissionRaise')} valuePropName="checked" extra={t('policy.permissionRaiseHelp')}>
        <Switch />
      </Form.Item>
      <Form.Item name="bankChange" label={t('policy.bankChange')} valuePropName="checked" extra={t('policy.bankChangeHelp')}>
        <Switch />
      </Form.Item>
      <Form.Item name="expiryHours" label={t('policy.expiryHours')} rules={[{ required: true, type: 'number', min: 1, max: 720, message: t('policy.expiryRule') }]}>
        <InputNumber min={1} max={720} precision={0} style={{ width: 140 }} />
      </Form.Item>
      <Form.Item
        name="approverCooldownDays"
        label={t('policy.cooldownDays')}
        extra={t('policy.cooldownHelp')}
        rules={[{ required: true, type: 'number', min: 0, max: 365, message: t('policy.cooldownRule') }]}
      >
        <InputNumber min={0} max={365} precision={0} style={{ width: 140 }} />
      </Form.Item>
      {canManage && (
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('team:form.save')}
        </Button>
      )}
    </Form>
  );
}
