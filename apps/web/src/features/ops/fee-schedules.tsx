import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Modal, Table, Tag, Typography } from 'antd';
import { OpsMerchantsApi, toDecimal } from '@portal/contract';
import { dayjs } from '../../lib/time';
import { opsFeesApi, type OpsFeeHistoryRow, type OpsMerchantDetail } from './api/ops-http';
import { feeFromApi, feeToApi, FeeLinesField, type FeeForm } from './merchant-form';
import { opsQuery } from './api/ops-query';
import { areaKey } from '../../lib/api-query';

const STATE_COLOR = { FUTURE: 'processing', IN_FORCE: 'success', PAST: 'default' } as const;

/** A merchant's fee schedules: every dated one (history kept) and a new one from a day on (onboarding). */
export function FeeSchedules({ merchant, canEdit }: { merchant: OpsMerchantDetail; canEdit: boolean }) {
  const { t } = useTranslation('ops');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ effectiveFrom: dayjs.Dayjs; fees: FeeForm[] }>();
  const cur = merchant.settleCurrency;
  const history = useQuery(opsQuery(OpsMerchantsApi.fees, { merId: merchant.merId }));
  const add = useMutation({
    mutationFn: (v: { effectiveFrom: dayjs.Dayjs; fees: FeeForm[] }) =>
      opsFeesApi.add(merchant.merId, { effectiveFrom: v.effectiveFrom.format('YYYY-MM-DD'), fees: v.fees.map((f) => feeToApi(f, cur)) }),
    onSuccess: () => {
      setOpen(false);
      void message.success(t('operators.saved'));
      void qc.invalidateQueries({ queryKey: areaKey(OpsMerchantsApi.fees) });
    },
  });
  const pct = (bp: number) => `${(bp / 100).toFixed(2)}%`;
  return (
    <>
      <Typography.Title level={2} className="ops-section-title">
        {t('fee.history')}
      </Typography.Title>
      {canEdit && (
        <Button
          style={{ marginBottom: 8 }}
          onClick={() => {
            form.resetFields();
            setOpen(true);
          }}
        >
          {t('fee.newSchedule')}
        </Button>
      )}
      <Table<OpsFeeHistoryRow>
        size="small"
        rowKey={(r) => `${r.busLine}-${r.effectiveFrom}`}
        pagination={false}
        loading={history.isLoading}
        dataSource={history.data ?? []}
        scroll={{ x: 760 }}
        columns={[
          {
            title: t('fee.from'),
            dataIndex: 'effectiveFrom',
            render: (v: string, r) => (
              <>
                {v} <Tag color={STATE_COLOR[r.state]}>{t(`fee.state.${r.state}`)}</Tag>
              </>
            ),
          },
          { title: t('fee.busLine'), dataIndex: 'busLine' },
          { title: t('fee.mdr'), dataIndex: 'mdrBp', render: pct },
          { title: t('fee.fixedFee'), dataIndex: 'fixedFee', render: (v: number) => `${toDecimal(v, cur)} ${cur}` },
          { title: t('fee.cycle'), dataIndex: 'cycleDays', render: (v: number) => `T+${v}` },
          { title: t('fee.reserve'), dataIndex: 'reserveBp', render: (v: number, r) => `${pct(v)} / ${r.reserveHoldDays}` },
          { title: t('fee.tranFee'), dataIndex: 'tranFee', render: (v: number, r) => `${toDecimal(v, cur)} ≥ ${toDecimal(r.tranThreshold, cur)} · ${r.transferPeriod}` },
          { title: t('fee.disputeFee'), dataIndex: 'disputeFee', render: (v: number) => `${toDecimal(v ?? 0, cur)} ${cur}` },
          { title: t('fee.enteredBy'), dataIndex: 'enteredBy' },
        ]}
      />
      <Modal
        title={t('fee.newSchedule')}
        open={open}
        width={1000}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText={t('merchants.save')}
        cancelText={t('cancel')}
        confirmLoading={add.isPending}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => add.mutate(v)}
          initialValues={{ effectiveFrom: dayjs().add(1, 'day'), fees: merchant.fees.map((f) => feeFromApi(f, cur)) }}
        >
          <Form.Item name="effectiveFrom" label={t('fee.from')} extra={t('fee.fromHint')} rules={[{ required: true, message: t('form.required') }]}>
            <DatePicker disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
          <FeeLinesField />
        </Form>
      </Modal>
    </>
  );
}
