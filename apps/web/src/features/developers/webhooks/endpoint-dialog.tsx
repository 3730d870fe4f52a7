import { useEffect } from 'react';
import { Checkbox, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, type WebhookEndpoint, type WebhookSecret } from '@portal/contract';
import { MerchantSelect } from '../../../components/merchant-select';
import { useSession } from '../../../lib/session';
import { RequestError } from '../../../lib/http';
import { useCreateEndpoint, useUpdateEndpoint, type EndpointForm } from './api/webhooks';

export const eventKey = (type: string) => `event.${type.replace(/\./g, '_')}`;

/** Add or edit an endpoint: merchant (add only), URL, events, description. A new endpoint's secret goes to `onCreated`. */
export function EndpointDialog({ open, editing, onClose, onCreated }: { open: boolean; editing: WebhookEndpoint | null; onClose: () => void; onCreated: (s: WebhookSecret) => void }) {
  const { t } = useTranslation('webhooks');
  const [form] = Form.useForm<EndpointForm>();
  const merId = useSession().user?.merId;
  const create = useCreateEndpoint();
  const update = useUpdateEndpoint();
  const saving = create.isPending || update.isPending;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(editing ? { url: editing.url, events: editing.events, description: editing.description } : { merId, url: '', events: [...WEBHOOK_EVENTS], description: '' });
  }, [open, editing, form, merId]);

  const submit = async () => {
    // A field the form refuses shows its message under the field; the rejection ends here, not as an
    // uncaught error of the page (issue 53).
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    try {
      if (editing) {
        await update.mutateAsync({ ...v, id: editing.id });
        onClose();
      } else {
        onCreated(await create.mutateAsync(v));
      }
    } catch (err) {
      form.setFields([{ name: 'url', errors: [err instanceof RequestError || err instanceof Error ? err.message : String(err)] }]);
    }
  };

  return (
    <Modal
      open={open}
      title={t(editing ? 'form.titleEdit' : 'form.titleAdd')}
      okText={t('action.save')}
      cancelText={t('action.cancel')}
      onOk={() => void submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Form form={form} layout="vertical" requiredMark>
        {!editing && (
          <Form.Item name="merId" label={t('form.merchant')} rules={[{ required: true, message: t('form.required') }]}>
            <MerchantSelect aria-label={t('form.merchant')} />
          </Form.Item>
        )}
        <Form.Item
          name="url"
          label={t('form.url')}
          extra={t('form.urlHelp')}
          rules={[{ required: true, message: t('form.required') }, { max: WEBHOOK_URL_MAX }, { pattern: /^https?:\/\/[^\s/@]+(\/\S*)?$/i, message: t('form.urlInvalid') }]}
        >
          <Input placeholder="https://example.com/webhooks" autoComplete="off" inputMode="url" />
        </Form.Item>
        <Form.Item name="events" label={t('form.events')} rules={[{ required: true, type: 'array', min: 1, message: t('form.eventsRequired') }]}>
          <Checkbox.Group style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 4 }}>
            {WEBHOOK_EVENTS.map((e) => (
              <Checkbox key={e} value={e}>
                {t(eventKey(e))}{' '}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {e}
                </Typography.Text>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="description" label={t('form.description')} rules={[{ max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
