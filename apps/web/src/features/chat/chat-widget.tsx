import { useState } from 'react';
import { Drawer, FloatButton } from 'antd';
import { CustomerServiceOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** The bubble and its drawer around the widget's frame (loaded only when the server has a chat). */
export function ChatWidget({ url }: { url: string }) {
  const { t } = useTranslation('chat');
  const [open, setOpen] = useState(false);
  return (
    <>
      <FloatButton icon={<CustomerServiceOutlined />} type="primary" tooltip={t('open')} aria-label={t('open')} onClick={() => setOpen(true)} />
      <Drawer open={open} onClose={() => setOpen(false)} title={t('title')} size="default" styles={{ body: { padding: 0 } }} destroyOnHidden>
        <iframe title={t('title')} src={url} style={{ border: 0, width: '100%', height: '100%' }} referrerPolicy="no-referrer" sandbox="allow-scripts allow-same-origin allow-forms allow-popups" />
      </Drawer>
    </>
  );
}
