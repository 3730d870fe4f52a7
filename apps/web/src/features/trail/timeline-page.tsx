import { Alert, Button, Card, Empty, Flex, Form, Input, List, Tag, Timeline as AntTimeline, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/page-container';
import { Money } from '../../components/money';
import { displayZone, formatInstant } from '../../lib/time';
import { timelinePath, useOrderSearch, useTimeline, type TimelineEvent } from './api';
import { proofPathOf } from './paths';

/**
 * /trail/order (issue 49 §3): find a buyer order by any reference, then its timeline — every
 * attempt, refund, pay-link event, shipment, the settlement day and the transfer that paid it,
 * who did what, in the user's zone. `?q=` searches; `?merId=&no=` opens one order.
 */
export function TimelinePage() {
  const { t } = useTranslation('trail');
  const [params, setParams] = useSearchParams();
  const q = params.get('q');
  const merId = params.get('merId');
  const no = params.get('no');
  const hits = useOrderSearch(q && !no ? { q } : null);
  const tl = useTimeline(merId, no);
  return (
    <PageContainer>
      <Flex vertical gap={16}>
        <Card size="small">
          <Form layout="inline" initialValues={{ q: q ?? '' }} onFinish={(v: { q: string }) => setParams({ q: v.q.trim() })}>
            <Form.Item name="q" label={t('timeline.search')} rules={[{ required: true, min: 3, message: t('timeline.searchHint') }]} style={{ flex: 1, minWidth: 240 }}>
              <Input placeholder={t('timeline.searchHint')} aria-label={t('timeline.search')} />
            </Form.Item>
            <Button type="primary" htmlType="submit">
              {t('timeline.find')}
            </Button>
          </Form>
        </Card>
        {q && !no ? (
          <Card size="small" title={t('timeline.results')}>
            {hits.data?.content.length ? (
              <List
                dataSource={hits.data.content}
                renderItem={(h) => (
                  <List.Item>
                    <Link to={timelinePath(h.merId, h.orderNo)}>{h.orderNo}</Link>
                    <span>{h.merId}</span>
                    <span>{h.buyerEmail ?? ''}</span>
                    {h.amount && h.currency ? (
                      <span style={{ minWidth: 120 }}>
                        <Money value={h.amount} currency={h.currency} />
                      </span>
                    ) : null}
                  </List.Item>
                )}
              />
            ) : hits.isFetching ? null : (
              <Empty description={t('timeline.none')} />
            )}
          </Card>
        ) : null}
        {no && tl.isError ? <Alert type="error" showIcon message={t('timeline.notFound')} /> : null}
        {tl.data ? (
          <Card size="small" title={`${t('timeline.title')} · ${tl.data.orderNo}`} extra={<Typography.Text type="secondary">{t('timeline.zone', { zone: displayZone() })}</Typography.Text>}>
            <AntTimeline items={tl.data.events.map((e) => ({ key: `${e.source}|${e.at}|${e.kind}|${e.ref}|${e.txnId}`, color: color(e), children: <EventLine e={e} /> }))} />
          </Card>
        ) : null}
      </Flex>
    </PageContainer>
  );
}

const color = (e: TimelineEvent) => (e.kind === 'refund' ? 'red' : e.kind === 'transfer' ? 'green' : e.kind.startsWith('audit.') ? 'gray' : 'blue');

function EventLine({ e }: { e: TimelineEvent }) {
  const { t } = useTranslation('trail');
  const kind = e.kind.startsWith('audit.')
    ? t('timeline.kind.audit', { action: e.kind.slice(6) })
    : e.kind.startsWith('link.')
      ? t('timeline.kind.link', { what: t(`timeline.link.${e.kind.slice(5)}`, { defaultValue: e.kind.slice(5) }) })
      : t(`timeline.kind.${e.kind}`);
  return (
    <Flex wrap gap={8} align="baseline" className="trail-event">
      <span className="trail-when">{e.day ?? formatInstant(e.at)}</span>
      <strong>{kind}</strong>
      {e.status ? <Tag>{e.status}</Tag> : null}
      {e.amount && e.currency ? (
        <span className="trail-amount">
          <Money value={e.amount} currency={e.currency} />
        </span>
      ) : null}
      {e.txnId ? <Link to={`/txn/detail/${e.txnId}`}>{e.ref}</Link> : e.transferId ? null : e.ref ? <span>{e.ref}</span> : null}
      {e.transferId ? <Link to={proofPathOf(e.transferId)}>{t('timeline.openProof')}</Link> : null}
      {e.actor ? <Typography.Text type="secondary">{t('timeline.by', { who: e.actor })}</Typography.Text> : null}
    </Flex>
  );
}
