import { Button, List, Modal, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SavedView } from '@portal/contract';

export interface ManageActions {
  open: (v: SavedView) => void;
  toggleDefault: (v: SavedView) => void;
  toggleShared: (v: SavedView, shared: boolean) => void;
  overwrite: (v: SavedView) => void;
  remove: (v: SavedView) => void;
  linkOf: (v: SavedView) => string;
}

/** The screen's views: open, default, share (with its link), update with the current filters, delete. */
export function ManageViewsDialog({ open, views, actions, onClose }: { open: boolean; views: SavedView[]; actions: ManageActions; onClose: () => void }) {
  const { t } = useTranslation('views');
  return (
    <Modal open={open} title={t('manage.title')} footer={null} onCancel={onClose} width={640} destroyOnHidden>
      {views.length === 0 && <Typography.Paragraph type="secondary">{t('manage.empty')}</Typography.Paragraph>}
      <List
        dataSource={views}
        rowKey="id"
        renderItem={(v) => (
          <List.Item>
            <Space direction="vertical" size={4} style={{ width: '100%', minWidth: 0 }}>
              <Space wrap size={6}>
                <Button type="link" className="saved-views__name" onClick={() => actions.open(v)}>
                  {v.name}
                </Button>
                {v.isDefault && <Tag color="warning">{t('tag.default')}</Tag>}
                {v.shared && <Tag color="blue">{t('tag.shared')}</Tag>}
                {!v.mine && <Typography.Text type="secondary">{t('manage.sharedBy', { name: v.ownerName })}</Typography.Text>}
              </Space>
              <Space wrap size={8}>
                <Button size="small" icon={v.isDefault ? <StarFilled /> : <StarOutlined />} onClick={() => actions.toggleDefault(v)}>
                  {v.isDefault ? t('manage.unsetDefault') : t('manage.setDefault')}
                </Button>
                {v.mine && (
                  <>
                    <Space size={4}>
                      <Switch size="small" checked={v.shared} onChange={(c) => actions.toggleShared(v, c)} aria-label={t('manage.shareNamed', { name: v.name })} />
                      <span aria-hidden>{t('manage.share')}</span>
                    </Space>
                    <Button size="small" onClick={() => actions.overwrite(v)}>
                      {t('manage.overwrite')}
                    </Button>
                    <Popconfirm title={t('manage.deleteConfirm', { name: v.name })} okText={t('manage.delete')} cancelText={t('cancel')} onConfirm={() => actions.remove(v)}>
                      <Button size="small" icon={<DeleteOutlined />}>
                        {t('manage.delete')}
                      </Button>
                    </Popconfirm>
                  </>
                )}
              </Space>
              {v.shared && (
                <Typography.Text type="secondary" className="saved-views__link" copyable={{ text: actions.linkOf(v), tooltips: [t('manage.copyLink'), t('manage.copied')] }}>
                  {t('manage.link')}: <span data-testid="view-link">{actions.linkOf(v)}</span>
                </Typography.Text>
              )}
            </Space>
          </List.Item>
        )}
      />
    </Modal>
  );
}
