import { Checkbox, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { VIEW_NAME_MAX, type SavedView } from '@portal/contract';
import { charCount } from '../../lib/char-count';

export interface SaveViewValues {
  name: string;
  shared: boolean;
  isDefault: boolean;
}

/** Names the current filters: a new view, optionally shared with the team and made the default. */
export function SaveViewDialog({ open, busy, onSave, onClose }: { open: boolean; busy: boolean; onSave: (v: SaveViewValues) => Promise<SavedView | void>; onClose: () => void }) {
  const { t } = useTranslation('views');
  const [form] = Form.useForm<SaveViewValues>();
  return (
    <Modal open={open} title={t('save.title')} okText={t('save.ok')} cancelText={t('cancel')} confirmLoading={busy} onOk={() => form.submit()} onCancel={onClose} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        name="saveView"
        initialValues={{ name: '', shared: false, isDefault: false }}
        onFinish={(v) => void onSave({ ...v, name: v.name.trim() }).then((saved) => saved && form.resetFields())}
      >
        <Form.Item name="name" label={t('save.name')} rules={[{ required: true, whitespace: true, message: t('save.nameRequired') }]}>
          <Input autoFocus count={charCount(VIEW_NAME_MAX)} />
        </Form.Item>
        <Form.Item name="shared" valuePropName="checked" extra={t('save.sharedHint')}>
          <Checkbox>{t('save.shared')}</Checkbox>
        </Form.Item>
        <Form.Item name="isDefault" valuePropName="checked">
          <Checkbox>{t('save.default')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
