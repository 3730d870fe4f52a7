import { List, Modal, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { timelinePath } from '../trail/api';
import { pblStateOf, searchHitPath, type SearchHit } from '@portal/contract';
import { displayZone, formatPlatform, zoneOffsetLabel } from '../../lib/time';

const KIND_COLOR: Record<SearchHit['kind'], string> = { txn: 'blue', refund: 'orange', payByLink: 'purple', payInStore: 'cyan' };

/**
 * The hits of a search to choose from, or "nothing found" (`hits` empty). Times come in the
 * platform zone (the wire's) and are shown in the user's zone, labelled (issue 29 §2).
 */
export function SearchResults({ q, hits, onClose }: { q: string; hits: SearchHit[] | null; onClose: () => void }) {
  const { t } = useTranslation('search');
  const { t: tt } = useTranslation('trail');
  const state = (h: SearchHit) =>
    h.kind === 'txn' || h.kind === 'refund'
      ? t(`status.${h.status === '00' ? 'success' : h.status === '04' || !h.status ? 'processing' : 'failed'}`)
      : t(`order.${pblStateOf({ status: h.type, openStatus: h.status ?? '' })}`);
  return (
    <Modal open={hits !== null} title={t('results.title', { q })} onCancel={onClose} footer={null} destroyOnHidden>
      {hits && hits.length === 0 ? (
        <div role="status" className="global-search__empty">
          <Typography.Paragraph strong>{t('results.none', { q })}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('results.noneHint')}</Typography.Paragraph>
        </div>
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('results.several', { count: hits?.length ?? 0 })}</Typography.Paragraph>
          <List
            dataSource={hits ?? []}
            rowKey={(h) => `${h.kind}-${h.id}`}
            renderItem={(h) => (
              <List.Item>
                <Space direction="vertical" size={2} style={{ minWidth: 0 }}>
                  <Space wrap size={6}>
                    <Tag color={KIND_COLOR[h.kind]}>{t(`kind.${h.kind}`)}</Tag>
                    <Link to={searchHitPath(h)} onClick={onClose} className="global-search__hit">
                      {h.orderNo}
                    </Link>
                    {/* issue 49: the buyer order's timeline (a refund's: found from its number) */}
                    <Link to={h.kind === 'refund' ? `/trail/order?q=${encodeURIComponent(h.orderNo)}` : timelinePath(h.merId, h.orderNo)} onClick={onClose}>
                      {tt('timeline.title')}
                    </Link>
                  </Space>
                  <Typography.Text type="secondary">
                    {t(`match.${h.match}`)} · {h.merName} ({h.merId}) · {h.amount} {h.currency} · {state(h)} · {formatPlatform(h.time)} ({zoneOffsetLabel(displayZone())})
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        </>
      )}
    </Modal>
  );
}
