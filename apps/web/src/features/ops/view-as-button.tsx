import { useState } from 'react';
import { Button, Form, Input, Modal } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOperator, mayDo } from './ops-me';
import { viewAsApi, viewAsEntryUrl } from './api/view-as-api';

/**
 * "View as (support)" on a merchant's detail (decision 046): the support role (and the
 * administrator) states a reason and opens the merchant's portal read-only in a new tab.
 */
export function ViewAsButton({ merId, merName }: { merId: string; merName: string }) {
  const { t } = useTranslation('ops');
  const me = useOperator();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const start = useMutation({
    mutationFn: (reason: string) => viewAsApi.open(merId, reason),
    onSuccess: (v) => {
      setOpen(false);
      window.open(viewAsEntryUrl(v), '_blank', 'noopener');
    },
  });
  if (!mayDo(me, ['support'])) return null;
  return (
    <>
      <Button
        onClick={() => {
          form.resetFields();
          setOpen(true);
        }}
      >
        {t('viewAs.button')}
      </Button>
      <Modal
        title={t('viewAs.title', { merchant: merName })}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText={t('viewAs.open')}
        cancelText={t('cancel')}
        confirmLoading={start.isPending}
        destroyOnHidden
      >
        <p>{t('viewAs.explain')}</p>
        <Form form={form} layout="vertical" onFinish={(v) => start.mutate(v.reason.trim())} requiredMark={false}>
          <Form.Item name="reason" label={t('viewAs.reason')} extra={t('viewAs.reasonHint')} rules={[{ required: true, whitespace: true, min: 5, message: t('viewAs.reasonRequired') }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
