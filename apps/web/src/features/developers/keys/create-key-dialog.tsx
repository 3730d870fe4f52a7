import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, Modal, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isCidr, type ApiKeyCreated } from '@portal/contract';
import { useMerchant, useUser } from '../../../lib/session';
import { RequestError } from '../../../lib/http';
import { PermissionPicker } from '../../team/components/permission-picker';
import { useCreateKey } from './api/keys';

interface Values {
  name: string;
  merIds: string[];
  permissions: string[];
  ipAllow?: string;
  expiresOn?: Dayjs | null;
}

const lines = (s?: string) =>
  (s ?? '')
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Create an API key: name, merchants (the caller's), permissions (the caller's own), IP allow-list, last day. */
export function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (k: ApiKeyCreated) => void }) {
  const { t } = useTranslation('developer');
  const [form] = Form.useForm<Values>();
  const { subMerIdAndNameList } = useMerchant();
  const { merId } = useUser();
  const create = useCreateKey();
  const [error, setError] = useState<string | null>(null);

  const submit = async (v: Values) => {
    setError(null);
    try {
      const ip = lines(v.ipAllow);
      const k = await create.mutateAsync({
        name: v.name.trim(),
        merIds: v.merIds,
        permissions: v.permissions,
        ipAllow: ip.length ? ip : undefined,
        expiresOn: v.expiresOn ? v.expiresOn.format('YYYY-MM-DD') : undefined,
      });
      form.resetFields();
      onCreated(k);
    } catch (e) {
      setError(e instanceof RequestError ? e.message : t('createError'));
    }
  };

  return (
    <Modal
      open={open}
      title={t('form.title')}
      onCancel={onClose}
      okText={t('form.submit')}
      cancelText={t('form.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      width={720}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form<Values> form={form} layout="vertical" name="createKey" onFinish={submit} initialValues={{ merIds: [merId], permissions: [] }}>
        <Form.Item name="name" label={t('form.name')} extra={t('form.nameHelp')} rules={[{ required: true, whitespace: true, message: t('form.required') }]}>
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <Form.Item name="merIds" label={t('form.merchants')} extra={t('form.merchantsHelp')} rules={[{ required: true, type: 'array', min: 1, message: t('form.required') }]}>
          <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={subMerIdAndNameList.map((m) => ({ value: m.mid, label: `${m.mid} - ${m.name}` }))} />
        </Form.Item>
        <Form.Item name="permissions" label={t('form.permissions')} extra={t('form.permissionsHelp')} rules={[{ required: true, type: 'array', min: 1, message: t('form.required') }]}>
          <PermissionPicker />
        </Form.Item>
        <Form.Item
          name="ipAllow"
          label={t('form.ipAllow')}
          extra={t('form.ipAllowHelp')}
          rules={[
            {
              validator: async (_, v?: string) => {
                const bad = lines(v).find((x) => !isCidr(x));
                if (bad) throw new Error(t('form.ipRule', { value: bad }));
              },
            },
          ]}
        >
          <Input.TextArea rows={2} autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Form.Item name="expiresOn" label={t('form.expiresOn')} extra={t('form.expiresHelp')}>
          <DatePicker format="YYYY-MM-DD" disabledDate={(d) => d.isBefore(new Date(), 'day')} style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The new key's secret, shown this once, with a copy button. */
export function KeySecretDialog({ created, onClose }: { created: ApiKeyCreated | null; onClose: () => void }) {
  const { t } = useTranslation('developer');
  return (
    <Modal
      open={!!created}
      title={t('secret.title')}
      onCancel={onClose}
      closable={false}
      maskClosable={false}
      // The secret leaves the page when the dialog closes.
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {t('secret.done')}
        </Button>
      }
      width={640}
    >
      <Alert type="warning" showIcon message={t('secret.warning')} style={{ marginBottom: 16 }} />
      <Typography.Text strong id="new-key-label">
        {t('secret.label')}
      </Typography.Text>
      <Typography.Paragraph
        code
        copyable={{ text: created?.secret ?? '', tooltips: [t('secret.copy'), t('secret.copied')] }}
        aria-labelledby="new-key-label"
        data-testid="new-key-secret"
        style={{ wordBreak: 'break-all', marginTop: 4 }}
      >
        {created?.secret}
      </Typography.Paragraph>
    </Modal>
  );
}
