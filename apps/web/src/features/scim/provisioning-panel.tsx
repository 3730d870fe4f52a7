import { useState } from 'react';
import { Alert, Button, Card, Flex, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ScimMappingRow, ScimTokenRow } from '@portal/contract';
import { RequestError } from '../../lib/http';
import { useApp } from '../../app/lazy-app';
import { useRoleList } from '../team/api/roles';
import { createScimToken, removeScimMapping, revokeScimToken, saveScimMapping, scimQueries, useScimGroups, useScimMappings, useScimTokens } from './api';
import { teamQueries } from '../team/api/team-queries';

const errText = (e: unknown) => (e instanceof RequestError ? e.message : String(e));

/**
 * Team → Provisioning (issue 51): the SCIM endpoint and bearer tokens an identity provider
 * (Entra ID, Okta) provisions users with — a token's secret is shown once — and the mappings of
 * directory groups to the merchant's named roles.
 */
export function ProvisioningPanel() {
  const { t } = useTranslation('scim');
  const { message, modal } = useApp();
  const qc = useQueryClient();
  const tokens = useScimTokens();
  const mappings = useScimMappings();
  const groups = useScimGroups();
  const roles = useRoleList();
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [form] = Form.useForm<{ groupName: string; roleId: number }>();
  const refresh = () => qc.invalidateQueries({ predicate: scimQueries });
  const endpoint = `${window.location.origin}/scim/v2`;

  const make = async () => {
    try {
      const r = await createScimToken(name.trim());
      setSecret(r.secret);
      setName('');
      await refresh();
    } catch (e) {
      message.error(errText(e));
    }
  };
  const revoke = (row: ScimTokenRow) =>
    modal.confirm({
      title: t('tokens.revokeConfirm', { name: row.name }),
      okText: t('tokens.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('cancel'),
      onOk: async () => {
        try {
          await revokeScimToken(row.id);
          message.success(t('tokens.revoked'));
          await refresh();
        } catch (e) {
          message.error(errText(e));
        }
      },
    });
  const map = async (v: { groupName: string; roleId: number }) => {
    try {
      await saveScimMapping(v.groupName.trim(), v.roleId);
      message.success(t('mappings.saved'));
      form.resetFields();
      await refresh();
      await qc.invalidateQueries({ predicate: teamQueries });
    } catch (e) {
      message.error(errText(e));
    }
  };
  const unmap = async (row: ScimMappingRow) => {
    try {
      await removeScimMapping(row.id);
      await refresh();
    } catch (e) {
      message.error(errText(e));
    }
  };

  return (
    <Flex vertical gap={16}>
      <Card title={t('endpoint.title')} size="small">
        <Typography.Paragraph>{t('endpoint.help')}</Typography.Paragraph>
        <Typography.Text code copyable data-testid="scim-endpoint">
          {endpoint}
        </Typography.Text>
      </Card>

      <Card title={t('tokens.title')} size="small">
        <Flex gap={8} wrap style={{ marginBottom: 12 }}>
          <Input aria-label={t('tokens.name')} placeholder={t('tokens.namePlaceholder')} value={name} maxLength={64} onChange={(e) => setName(e.target.value)} style={{ maxWidth: 320 }} />
          <Button type="primary" disabled={!name.trim()} onClick={make}>
            {t('tokens.create')}
          </Button>
        </Flex>
        <Table<ScimTokenRow>
          rowKey="id"
          size="small"
          pagination={false}
          loading={tokens.isLoading}
          dataSource={tokens.data ?? []}
          scroll={{ x: 720 }}
          locale={{ emptyText: t('tokens.none') }}
          columns={[
            { title: t('tokens.name'), dataIndex: 'name' },
            { title: t('tokens.prefix'), dataIndex: 'prefix', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
            { title: t('tokens.createdBy'), dataIndex: 'createdBy' },
            { title: t('tokens.createdAt'), dataIndex: 'createdAt' },
            { title: t('tokens.lastUsed'), dataIndex: 'lastUsedAt', render: (v: string | null) => v ?? t('tokens.never') },
            { title: t('tokens.status'), dataIndex: 'status', render: (v: ScimTokenRow['status']) => <Tag color={v === 'active' ? 'blue' : 'default'}>{t(`tokens.${v}`)}</Tag> },
            {
              title: t('actions'),
              key: 'a',
              render: (_: unknown, r) =>
                r.status === 'active' ? (
                  <Button size="small" danger onClick={() => revoke(r)}>
                    {t('tokens.revoke')}
                  </Button>
                ) : null,
            },
          ]}
        />
      </Card>

      <Card title={t('mappings.title')} size="small">
        <Typography.Paragraph type="secondary">{t('mappings.help')}</Typography.Paragraph>
        <Form form={form} layout="inline" onFinish={map} style={{ marginBottom: 12, rowGap: 8 }}>
          <Form.Item name="groupName" label={t('mappings.group')} rules={[{ required: true, whitespace: true, message: t('mappings.groupRequired') }]}>
            <Input maxLength={256} style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="roleId" label={t('mappings.role')} rules={[{ required: true, message: t('mappings.roleRequired') }]}>
            <Select style={{ width: 220 }} options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))} notFoundContent={t('mappings.noRoles')} />
          </Form.Item>
          <Form.Item>
            <Button htmlType="submit">{t('mappings.add')}</Button>
          </Form.Item>
        </Form>
        <Table<ScimMappingRow>
          rowKey="id"
          size="small"
          pagination={false}
          loading={mappings.isLoading}
          dataSource={mappings.data ?? []}
          scroll={{ x: 560 }}
          locale={{ emptyText: t('mappings.none') }}
          columns={[
            { title: t('mappings.group'), dataIndex: 'groupName' },
            { title: t('mappings.role'), dataIndex: 'roleName' },
            { title: t('mappings.members'), dataIndex: 'members' },
            {
              title: t('actions'),
              key: 'a',
              render: (_: unknown, r) => (
                <Button size="small" onClick={() => unmap(r)}>
                  {t('mappings.remove')}
                </Button>
              ),
            },
          ]}
        />
        {(groups.data ?? []).length > 0 && (
          <Typography.Paragraph style={{ marginTop: 12 }}>
            {t('mappings.pushed')}{' '}
            {(groups.data ?? []).map((g) => (
              <Tag key={g.id} color={g.roleName ? 'blue' : 'default'}>
                {g.displayName} ({g.members})
              </Tag>
            ))}
          </Typography.Paragraph>
        )}
      </Card>

      <Modal
        open={!!secret}
        title={t('tokens.secretTitle')}
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
        okText={t('tokens.secretDone')}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert type="warning" showIcon message={t('tokens.secretOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: secret ?? '' }} code data-testid="scim-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Typography.Paragraph>
      </Modal>
    </Flex>
  );
}
