import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { opsHttp } from '../ops/api/ops-http';
import { mayDo, useOperator } from '../ops/ops-me';
import { OpsWorkApi, type OpsSsoMerchant } from '@portal/contract';
import { opsQuery } from '../ops/api/ops-query';
import { apiKey } from '../../lib/api-query';
export type { OpsSsoMerchant } from '@portal/contract';

const api = {
  ask: (merId: string, reason: string) => opsHttp.call(OpsWorkApi.ssoRequireOff, { merId, reason }),
  decide: (id: number, how: 'approve' | 'reject') => opsHttp.call(how === 'approve' ? OpsWorkApi.approveSso : OpsWorkApi.rejectSso, { id }),
};
const WRITERS = ['risk', 'support'] as const;

/**
 * Back office → SSO (issue 51): which merchant groups sign in with an identity provider, and
 * lifting "SSO required" for one locked out of it — one operator asks with a reason, another
 * approves (four eyes; the asker may not). Both audited.
 */
export default function OpsSsoPage() {
  const { t } = useTranslation('sso');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery(opsQuery(OpsWorkApi.ssoMerchants, undefined));
  const [asking, setAsking] = useState<OpsSsoMerchant | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const refresh = () => qc.invalidateQueries({ queryKey: apiKey(OpsWorkApi.ssoMerchants) });
  const ask = useMutation({
    mutationFn: (reason: string) => api.ask(asking!.merId, reason),
    onSuccess: () => {
      void message.success(t('ops.asked'));
      setAsking(null);
      form.resetFields();
      void refresh();
    },
  });
  const decide = useMutation({
    mutationFn: (v: { id: number; how: 'approve' | 'reject' }) => api.decide(v.id, v.how),
    onSuccess: (_r, v) => {
      void message.success(t(v.how === 'approve' ? 'ops.approved' : 'ops.rejected'));
      void refresh();
    },
  });
  const canWrite = mayDo(me, WRITERS);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('ops.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('ops.hint')}
      </Typography.Paragraph>
      <Table<OpsSsoMerchant>
        rowKey="merId"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('ops.empty') }}
        columns={[
          {
            title: t('ops.merchant'),
            render: (_, r) => (
              <>
                <div>{r.merName}</div>
                <Typography.Text type="secondary">{r.merId}</Typography.Text>
              </>
            ),
          },
          {
            title: t('ops.provider'),
            render: (_, r) => (
              <>
                {r.providerName} <Tag>{r.kind.toUpperCase()}</Tag>
                {!r.enabled && <Tag>{t('provider.disabled')}</Tag>}
              </>
            ),
          },
          { title: t('ops.domains'), dataIndex: 'verifiedDomains' },
          { title: t('ops.users'), dataIndex: 'ssoUsers' },
          { title: t('policy.title'), render: (_, r) => (r.ssoRequired ? <Tag color="processing">{t('ops.required')}</Tag> : <Tag>{t('ops.notRequired')}</Tag>) },
          {
            title: t('actions'),
            render: (_, r) =>
              r.pendingRequest ? (
                <Space wrap>
                  <Typography.Text>{t('ops.pending', { who: r.pendingRequest.requestedBy })}</Typography.Text>
                  {canWrite && r.pendingRequest.requestedBy !== me.username && (
                    <>
                      <Button size="small" type="primary" loading={decide.isPending} onClick={() => decide.mutate({ id: r.pendingRequest!.id, how: 'approve' })}>
                        {t('ops.approve')}
                      </Button>
                      <Button size="small" danger loading={decide.isPending} onClick={() => decide.mutate({ id: r.pendingRequest!.id, how: 'reject' })}>
                        {t('ops.reject')}
                      </Button>
                    </>
                  )}
                </Space>
              ) : r.ssoRequired && canWrite ? (
                <Button size="small" onClick={() => setAsking(r)}>
                  {t('ops.ask')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        title={asking ? t('ops.askTitle', { name: asking.merName }) : ''}
        open={!!asking}
        onCancel={() => setAsking(null)}
        onOk={() => form.submit()}
        okText={t('ops.ask')}
        confirmLoading={ask.isPending}
      >
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => ask.mutate(v.reason)}>
          <Form.Item name="reason" label={t('ops.reason')} rules={[{ required: true, whitespace: true, min: 3, message: t('ops.reasonRequired') }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
