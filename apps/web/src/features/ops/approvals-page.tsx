import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { formatInstant } from '../../lib/time';
import { opsApprovalsApi, type OpsBankChange } from './api/ops-http';
import { mayDo, useOperator } from './ops-me';
import { opsQuery } from './api/ops-query';
import { apiKey } from '../../lib/api-query';
import { OpsMerchantsApi } from '@portal/contract';

const COLOR = { PENDING: 'warning', APPROVED: 'success', REJECTED: 'error' } as const;

/** Approvals: bank-account change requests of every merchant; risk approves or rejects with a reason (four eyes). */
export default function ApprovalsPage() {
  const { t } = useTranslation('ops');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [status, setStatus] = useState<'PENDING' | 'APPROVED' | 'REJECTED' | undefined>('PENDING');
  const [deciding, setDeciding] = useState<{ row: OpsBankChange; decision: 'approve' | 'reject' } | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const list = useQuery(opsQuery(OpsMerchantsApi.bankChanges, { status }));
  const decide = useMutation({
    mutationFn: (reason: string) => opsApprovalsApi.decide(deciding!.row.id, deciding!.decision, reason),
    onSuccess: () => {
      void message.success(t('approvals.done'));
      setDeciding(null);
      form.resetFields();
      void qc.invalidateQueries({ queryKey: apiKey(OpsMerchantsApi.bankChanges) });
    },
  });
  const canDecide = mayDo(me, ['risk']);
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('approvals.title')}
      </Typography.Title>
      <div className="ops-toolbar">
        <Select
          aria-label={t('merchants.status')}
          value={status}
          allowClear
          placeholder={t('merchants.status')}
          style={{ width: 160 }}
          onChange={setStatus}
          options={(['PENDING', 'APPROVED', 'REJECTED'] as const).map((s) => ({ value: s, label: t(`approvals.status.${s}`) }))}
        />
      </div>
      <Table<OpsBankChange>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: t('approvals.request'),
            dataIndex: 'id',
            render: (id: number, r) => (
              <>
                #{id} · {formatInstant(r.requestedAt)}
              </>
            ),
          },
          {
            title: t('approvals.merchant'),
            dataIndex: 'merName',
            render: (n: string, r) => (
              <>
                {n}
                <br />
                {r.merId}
              </>
            ),
          },
          {
            title: t('approvals.account'),
            key: 'acc',
            render: (_, r) => (
              <>
                {r.beneficiaryBank} · {r.swiftCode}
                <br />
                {r.accountName} · {r.accountNumber} · {r.currency}
              </>
            ),
          },
          {
            title: t('approvals.requestedBy'),
            dataIndex: 'requestedBy',
            render: (u: string, r) => (
              <>
                {u}
                {r.changedBy ? (
                  <>
                    <br />
                    {t('approvals.changedBy', { name: r.changedBy })}
                  </>
                ) : null}
              </>
            ),
          },
          {
            title: t('merchants.status'),
            dataIndex: 'status',
            render: (s: OpsBankChange['status'], r) => (
              <>
                <Tag color={COLOR[s]}>{t(`approvals.status.${s}`)}</Tag>
                {r.reason ? <div>{r.reason}</div> : null}
              </>
            ),
          },
          {
            title: t('operators.actions'),
            key: 'a',
            render: (_, r) =>
              r.status === 'PENDING' && canDecide ? (
                <Space wrap>
                  <Button size="small" type="primary" onClick={() => setDeciding({ row: r, decision: 'approve' })}>
                    {t('approvals.approve')}
                  </Button>
                  <Button size="small" danger onClick={() => setDeciding({ row: r, decision: 'reject' })}>
                    {t('approvals.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        title={deciding ? t(deciding.decision === 'approve' ? 'approvals.approveTitle' : 'approvals.rejectTitle', { id: deciding.row.id }) : ''}
        open={!!deciding}
        onCancel={() => setDeciding(null)}
        onOk={() => form.submit()}
        okText={deciding?.decision === 'reject' ? t('approvals.reject') : t('approvals.approve')}
        okButtonProps={{ danger: deciding?.decision === 'reject' }}
        cancelText={t('cancel')}
        confirmLoading={decide.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => decide.mutate(v.reason)}>
          <Form.Item name="reason" label={t('approvals.reason')} extra={t('approvals.reasonHint')} rules={[{ required: true, whitespace: true, min: 3, message: t('form.required') }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
