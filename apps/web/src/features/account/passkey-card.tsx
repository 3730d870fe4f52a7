import { useState } from 'react';
import { Alert, Button, Card, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { KeyOutlined, LockOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PasskeyItem } from '@portal/contract';
import { accountQueries, checkPassword, passkeyRegister, passkeyRegisterOptions, passkeyRemove, passkeyRename, usePasskeys } from './api/account';
import { passwordIcon } from '../../components/password-icon';
import { useApp } from '../../app/lazy-app';

/**
 * The passkeys of the signed-in user (decision 047): add one (named, the password checked again,
 * then the browser's authenticator), rename, remove after the password is checked again (step-up).
 */
export function PasskeyCard({ required, totpOn }: { required: boolean; totpOn: boolean }) {
  const { t } = useTranslation('account');
  const { message } = useApp();
  const qc = useQueryClient();
  const { data, isLoading } = usePasskeys();
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [renaming, setRenaming] = useState<PasskeyItem | null>(null);
  const [removing, setRemoving] = useState<PasskeyItem | null>(null);
  const [addForm] = Form.useForm<{ name: string; password: string }>();
  const [renameForm] = Form.useForm<{ name: string }>();
  const [removeForm] = Form.useForm<{ password: string }>();
  const supported = typeof window !== 'undefined' && !!window.PublicKeyCredential;
  const refresh = () => qc.invalidateQueries({ predicate: accountQueries });
  const nameRules = [
    { required: true, whitespace: true, message: t('required') },
    { max: 40, message: t('security.passkeyNameLong') },
  ];

  async function add() {
    const v = await addForm.validateFields();
    setBusy(true);
    try {
      // Adding a passkey is a security change like removing one: the password is checked again first (issue 47).
      const ok = await checkPassword(v.password);
      if (ok !== true) return;
      const { startRegistration } = await import('@simplewebauthn/browser');
      const options = await passkeyRegisterOptions();
      let answer;
      try {
        answer = await startRegistration({ optionsJSON: options });
      } catch {
        message.error(t('security.passkeyCancelled'));
        return;
      }
      await passkeyRegister(v.name.trim(), JSON.stringify(answer));
      message.success(t('security.passkeyAdded'));
      setAdding(false);
      addForm.resetFields();
      if (required && !totpOn && !data?.length) window.location.assign('/');
      else void refresh();
    } catch {
      /* shown by the request client */
    } finally {
      setBusy(false);
    }
  }
  async function rename() {
    const v = await renameForm.validateFields();
    try {
      await passkeyRename(renaming!.id, v.name.trim());
      setRenaming(null);
      void refresh();
    } catch {
      /* shown by the request client */
    }
  }
  async function remove() {
    const v = await removeForm.validateFields();
    try {
      const ok = await checkPassword(v.password);
      if (ok !== true) return;
      await passkeyRemove(removing!.id);
      message.success(t('security.passkeyRemoved'));
      setRemoving(null);
      removeForm.resetFields();
      void refresh();
    } catch {
      /* shown by the request client */
    }
  }

  return (
    <Card
      title={
        <Space>
          <KeyOutlined />
          {t('security.passkeys')}
        </Space>
      }
      extra={data?.length ? <Tag color="success">{t('security.passkeyCount', { n: data.length })}</Tag> : <Tag>{t('security.totpBadgeOff')}</Tag>}
    >
      {required && !totpOn && !data?.length && <Alert type="warning" showIcon title={t('security.totpRequired')} style={{ marginBottom: 12 }} />}
      <Typography.Paragraph>{t('security.passkeyHelp')}</Typography.Paragraph>
      {!supported && <Alert type="info" showIcon title={t('security.passkeyUnsupported')} style={{ marginBottom: 12 }} />}
      {!!data?.length && (
        <Table<PasskeyItem>
          rowKey="id"
          size="small"
          loading={isLoading}
          dataSource={data}
          pagination={false}
          scroll={{ x: 560 }}
          style={{ marginBottom: 12 }}
          columns={[
            { title: t('security.passkeyName'), dataIndex: 'name' },
            { title: t('security.passkeyAddedAt'), dataIndex: 'createdAt' },
            { title: t('security.passkeyLastUsed'), dataIndex: 'lastUsedAt', render: (v: string | null) => v ?? '—' },
            {
              title: t('security.actions'),
              key: 'op',
              render: (_, r) => (
                <Space>
                  <Button
                    size="small"
                    onClick={() => {
                      setRenaming(r);
                      renameForm.setFieldsValue({ name: r.name });
                    }}
                    aria-label={t('security.passkeyRenameOf', { name: r.name })}
                  >
                    {t('security.passkeyRename')}
                  </Button>
                  <Button size="small" danger onClick={() => setRemoving(r)} aria-label={t('security.passkeyRemoveOf', { name: r.name })}>
                    {t('security.passkeyRemove')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      )}
      <Button type="primary" disabled={!supported} onClick={() => setAdding(true)}>
        {t('security.passkeyAdd')}
      </Button>

      <Modal open={adding} title={t('security.passkeyAdd')} onCancel={() => setAdding(false)} onOk={add} okText={t('security.passkeyContinue')} confirmLoading={busy} destroyOnHidden>
        <Typography.Paragraph>{t('security.passkeyAddText')}</Typography.Paragraph>
        <Form form={addForm} layout="vertical" requiredMark={false} onFinish={add}>
          <Form.Item name="name" label={t('security.passkeyName')} rules={nameRules} extra={t('security.passkeyNameHint')}>
            <Input maxLength={40} autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('security.password')} rules={[{ required: true, message: t('required') }]}>
            <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={!!renaming} title={t('security.passkeyRename')} onCancel={() => setRenaming(null)} onOk={rename} okText={t('security.passkeySave')} destroyOnHidden>
        <Form form={renameForm} layout="vertical" requiredMark={false} onFinish={rename}>
          <Form.Item name="name" label={t('security.passkeyName')} rules={nameRules}>
            <Input maxLength={40} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={!!removing}
        title={t('security.passkeyRemoveTitle', { name: removing?.name ?? '' })}
        onCancel={() => setRemoving(null)}
        onOk={remove}
        okText={t('security.passkeyRemove')}
        okButtonProps={{ danger: true }}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('security.passkeyRemoveText')}</Typography.Paragraph>
        <Form form={removeForm} layout="vertical" requiredMark={false} onFinish={remove}>
          <Form.Item name="password" label={t('security.password')} rules={[{ required: true, message: t('required') }]}>
            <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
