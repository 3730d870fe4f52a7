import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { OPS_ROLES, OpsApi, type OpsRole } from '@portal/contract';
import { formatInstant } from '../../lib/time';
import { opsApi, type OperatorRow } from './api/ops-http';
import { useOperator } from './ops-me';
import { opsQuery } from './api/ops-query';
import { apiKey } from '../../lib/api-query';

const STATUS_COLOR = { ACTIVE: 'success', INACTIVE: 'warning', DISABLED: 'default' } as const;

/** Operators (administrator): list, invite (activation e-mail), change role, disable / enable, resend the link. */
export default function OperatorsPage() {
  const { t } = useTranslation('ops');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const [form] = Form.useForm<{ username: string; email: string; role: OpsRole }>();
  const list = useQuery(opsQuery(OpsApi.operators, undefined));
  const done = (text: string) => {
    void message.success(text);
    void qc.invalidateQueries({ queryKey: apiKey(OpsApi.operators) });
  };
  const invite = useMutation({
    mutationFn: opsApi.invite,
    onSuccess: () => {
      setInviting(false);
      form.resetFields();
      done(t('operators.invited'));
    },
  });
  const roles = OPS_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }));

  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('operators.title')}
      </Typography.Title>
      <div className="ops-toolbar">
        <Button type="primary" onClick={() => setInviting(true)}>
          {t('operators.invite')}
        </Button>
      </div>
      <Table<OperatorRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        scroll={{ x: 760 }}
        columns={[
          { title: t('operators.username'), dataIndex: 'username' },
          { title: t('operators.email'), dataIndex: 'email' },
          {
            title: t('operators.role'),
            dataIndex: 'role',
            render: (role: OperatorRow['role'], row) =>
              row.id === me.id ? (
                t(`roles.${role}`)
              ) : (
                <Select
                  aria-label={t('operators.roleOf', { username: row.username })}
                  value={role}
                  options={roles}
                  style={{ width: 150 }}
                  onChange={(next) =>
                    void opsApi.setRole(row.id, next).then(
                      () => done(t('operators.saved')),
                      () => undefined,
                    )
                  }
                />
              ),
          },
          { title: t('operators.status'), dataIndex: 'status', render: (s: OperatorRow['status'], row) => <Tag color={STATUS_COLOR[s]}>{t(`status.${row.locked ? 'LOCKED' : s}`)}</Tag> },
          { title: t('operators.created'), dataIndex: 'createdAt', render: (v: string) => formatInstant(v) },
          {
            title: t('operators.actions'),
            key: 'actions',
            render: (_, row) =>
              row.id === me.id ? null : (
                <Space wrap>
                  {row.status === 'INACTIVE' && (
                    <Button
                      size="small"
                      onClick={() =>
                        void opsApi.resendActivation(row.id).then(
                          () => done(t('operators.resent')),
                          () => undefined,
                        )
                      }
                    >
                      {t('operators.resend')}
                    </Button>
                  )}
                  {row.status === 'ACTIVE' && (
                    <Button
                      size="small"
                      danger
                      onClick={() =>
                        void opsApi.setEnabled(row.id, false).then(
                          () => done(t('operators.saved')),
                          () => undefined,
                        )
                      }
                    >
                      {t('operators.disable')}
                    </Button>
                  )}
                  {row.status === 'DISABLED' && (
                    <Button
                      size="small"
                      onClick={() =>
                        void opsApi.setEnabled(row.id, true).then(
                          () => done(t('operators.saved')),
                          () => undefined,
                        )
                      }
                    >
                      {t('operators.enable')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <Modal
        title={t('operators.invite')}
        open={inviting}
        onCancel={() => setInviting(false)}
        onOk={() => form.submit()}
        okText={t('operators.send')}
        cancelText={t('cancel')}
        confirmLoading={invite.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" initialValues={{ role: 'read-only' }} onFinish={(v) => invite.mutate(v)} requiredMark={false}>
          <Form.Item name="username" label={t('operators.username')} rules={[{ required: true, pattern: /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/, message: t('operators.usernameRule') }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="email" label={t('operators.email')} rules={[{ required: true, type: 'email', message: t('operators.emailRule') }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="role" label={t('operators.role')}>
            <Select options={roles} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
