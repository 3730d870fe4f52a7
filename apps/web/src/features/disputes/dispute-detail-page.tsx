import { useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Flex, Input, Popconfirm, Select, Skeleton, Space, Table, Tag, Timeline, Typography, Upload } from 'antd';
import { DeleteOutlined, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DisputesApi, Perm, brandName } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { Money } from '../../components/money';
import { useCan } from '../../components/can';
import { NotFoundResult } from '../errors/not-found-result';
import { formatInstantLabelled } from '../../lib/time';
import {
  EVIDENCE_CATEGORIES,
  EVIDENCE_MAX_BYTES,
  EVIDENCE_MAX_FILES,
  STATEMENT_MAX,
  acceptDispute,
  downloadEvidence,
  removeEvidence,
  saveStatement,
  submitDispute,
  uploadEvidence,
  useDispute,
  type DisputeDetail,
} from './api/disputes-api';
import { DaysLeft, StateTag, tagText } from './disputes-list-page';
import './disputes.css';
import { areaKey } from '../../lib/api-query';

/** /disputes/detail/{id} (issue 48): the dispute, its purchase and refunds, reason, timeline, settlement lines, and the answer. */
export function DisputeDetailPage() {
  const { t } = useTranslation('disputes');
  const { id = '' } = useParams();
  const { data: d, isPending, isError, error } = useDispute(id);
  if (isError && (error as { code?: number })?.code === 404) return <NotFoundResult />;
  return (
    <PageContainer back card={false}>
      {isPending || !d ? (
        isError ? (
          <Alert type="error" showIcon title={t('detail.loadFailed')} />
        ) : (
          <Skeleton active paragraph={{ rows: 6 }} />
        )
      ) : (
        <Flex vertical gap={16}>
          <Summary d={d} />
          <div className="dispute-grid">
            <Card title={t('detail.reason')} variant="borderless">
              <Typography.Paragraph strong>{d.reasonKnown ? `${d.reasonCode} · ${d.reason}` : d.reasonCode}</Typography.Paragraph>
              {!d.reasonKnown && <Typography.Paragraph type="secondary">{t('detail.unknownReason')}</Typography.Paragraph>}
              <Typography.Title level={5}>{t('detail.helps')}</Typography.Title>
              <Space wrap style={{ marginBottom: 8 }}>
                {d.evidenceHelps.map((c) => (
                  <Tag key={c}>{t(`category.${c}`)}</Tag>
                ))}
              </Space>
              <Typography.Paragraph>{d.evidenceText}</Typography.Paragraph>
            </Card>
            <Card title={t('detail.purchase')} variant="borderless">
              <Descriptions column={1} size="small">
                <Descriptions.Item label={t('detail.orderNo')}>
                  <Link to={`/txn/detail/${d.purchase.id}`}>{d.purchase.orderNo}</Link>
                </Descriptions.Item>
                <Descriptions.Item label={t('detail.gwTransId')}>{d.purchase.gwTransId}</Descriptions.Item>
                <Descriptions.Item label={t('col.amount')}>
                  <Money value={d.purchase.amount} currency={d.purchase.currency} />
                </Descriptions.Item>
                <Descriptions.Item label={t('detail.returned')}>
                  <Money value={d.purchase.returnAmount} currency={d.purchase.currency} />
                </Descriptions.Item>
                <Descriptions.Item label={t('col.brand')}>{brandName(d.purchase.brand)}</Descriptions.Item>
                <Descriptions.Item label={t('detail.time')}>{formatInstantLabelled(d.purchase.time)}</Descriptions.Item>
              </Descriptions>
              <Typography.Title level={5}>{t('detail.refunds')}</Typography.Title>
              {d.refunds.length ? (
                <ul className="dispute-list">
                  {d.refunds.map((r) => (
                    <li key={r.id}>
                      <Link to={`/txn/detail/${r.id}`}>{r.orderNo}</Link> · <Money value={r.amount} currency={r.currency} /> · {formatInstantLabelled(r.time)}
                    </li>
                  ))}
                </ul>
              ) : (
                <Typography.Text type="secondary">{t('detail.noRefunds')}</Typography.Text>
              )}
            </Card>
          </div>
          <Respond d={d} />
          <Card title={t('detail.settlement')} variant="borderless">
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              scroll={{ x: 560 }}
              dataSource={d.settlement}
              locale={{ emptyText: t('detail.notSettled') }}
              columns={[
                { key: 'kind', title: t('detail.line'), render: (_, m) => t(`line.${m.kind}`) },
                { key: 'amount', title: t('col.amount'), align: 'right', render: (_, m) => <Money value={m.amount} currency={m.setCur} /> },
                { key: 'date', title: t('detail.settleDate'), render: (_, m) => m.settleDate ?? t('detail.notSettled') },
                { key: 'busLine', title: t('detail.busLine'), dataIndex: 'busLine' },
                { key: 'txn', title: t('detail.gwTransId'), render: (_, m) => <Link to={`/txn/detail/${m.txnId}`}>{m.gwTransId}</Link> },
              ]}
            />
          </Card>
          <Card title={t('detail.timeline')} variant="borderless">
            <Timeline
              items={d.timeline.map((e) => ({
                children: (
                  <span>
                    <strong>{t(`action.${e.action}`, { defaultValue: e.action })}</strong> · {formatInstantLabelled(e.at)}
                    {e.by ? ` · ${e.by}` : ''}
                  </span>
                ),
              }))}
            />
          </Card>
        </Flex>
      )}
    </PageContainer>
  );
}

function Summary({ d }: { d: DisputeDetail }) {
  const { t } = useTranslation('disputes');
  return (
    <Card variant="borderless">
      <Flex align="center" gap={8} wrap style={{ marginBottom: 12 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {d.gwDisputeId}
        </Typography.Title>
        <StateTag state={d.state} />
        <Tag>{t(`kind.${d.kind}`)}</Tag>
        <DaysLeft d={d} dash={false} />
        {d.sendState && (
          <Tag
            className="dispute-tag"
            color={d.sendState === 'sending' ? 'blue' : d.sendState === 'sent' ? 'green' : 'red'}
            style={tagText(d.sendState === 'sending' ? 'blue' : d.sendState === 'sent' ? 'green' : 'red')}
          >
            {t(`send.${d.sendState}`)}
          </Tag>
        )}
      </Flex>
      <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
        <Descriptions.Item label={t('detail.disputed')}>
          <Money value={d.amount} currency={d.currency} strong />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.debited')}>
          <Money value={d.debitAmount} currency={d.currency} />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.refundedBefore')}>
          <Money value={d.refundedBefore} currency={d.currency} />
        </Descriptions.Item>
        <Descriptions.Item label={t('col.deadline')}>{formatInstantLabelled(d.deadline)}</Descriptions.Item>
        <Descriptions.Item label={t('col.merchant')}>{d.merName}</Descriptions.Item>
        <Descriptions.Item label={t('col.opened')}>{formatInstantLabelled(d.openedAt)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

function Respond({ d }: { d: DisputeDetail }) {
  const { t } = useTranslation('disputes');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canRespond = useCan(Perm.disputeRespond);
  const [category, setCategory] = useState<string>(d.evidenceHelps[0] ?? 'receipt');
  const [statement, setStatement] = useState(d.statement ?? '');
  const [busy, setBusy] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: areaKey(DisputesApi.list) });
  const open = d.canRespond && canRespond;
  const run = async (f: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await f();
      message.success(done);
      await refresh();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('respond.title')} variant="borderless">
      {!d.canRespond && d.state !== 'needs_response' ? null : !canRespond ? <Alert type="info" showIcon title={t('respond.readOnly')} style={{ marginBottom: 12 }} /> : null}
      {!d.canRespond && d.state === 'needs_response' && <Alert type="warning" showIcon title={t('respond.closed')} style={{ marginBottom: 12 }} />}
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('detail.evidence')}
      </Typography.Title>
      {d.evidence.length ? (
        <ul className="dispute-list">
          {d.evidence.map((e) => (
            <li key={e.id}>
              <Tag>{t(`category.${e.category}`)}</Tag>
              <Button type="link" size="small" icon={<DownloadOutlined aria-hidden />} aria-label={`${t('respond.download')} ${e.fileName}`} onClick={() => downloadEvidence(d.id, e.id)}>
                {e.fileName}
              </Button>
              <Typography.Text type="secondary"> {e.size < 1024 ? `${e.size} B` : e.size < 1_048_576 ? `${(e.size / 1024).toFixed(0)} KB` : `${(e.size / 1_048_576).toFixed(1)} MB`}</Typography.Text>
              {open && !e.submitted && (
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={`${t('respond.remove')} ${e.fileName}`}
                  onClick={() => run(() => removeEvidence(d.id, e.id), t('respond.saved'))}
                />
              )}
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Paragraph type="secondary">{t('detail.noEvidence')}</Typography.Paragraph>
      )}
      {open && (
        <Flex vertical gap={12}>
          <Space wrap>
            <label htmlFor="evidence-category">{t('respond.category')}</label>
            <Select id="evidence-category" value={category} onChange={setCategory} style={{ minWidth: 180 }} options={EVIDENCE_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))} />
            <Upload
              accept="application/pdf,image/jpeg,image/png"
              multiple
              showUploadList={false}
              beforeUpload={(file) => {
                if (file.size > EVIDENCE_MAX_BYTES) {
                  message.error(t('respond.tooLarge', { name: file.name }));
                  return Upload.LIST_IGNORE;
                }
                if (!['application/pdf', 'image/jpeg', 'image/png'].includes(file.type)) {
                  message.error(t('respond.badType', { name: file.name }));
                  return Upload.LIST_IGNORE;
                }
                return true;
              }}
              customRequest={async ({ file, onSuccess, onError }) => {
                try {
                  const r = await uploadEvidence(d.id, category, file as File);
                  onSuccess?.(r);
                  await refresh();
                } catch (e) {
                  message.error((e as Error).message);
                  onError?.(e as Error);
                }
              }}
              disabled={d.evidence.length >= EVIDENCE_MAX_FILES}
            >
              <Button icon={<UploadOutlined aria-hidden />} disabled={d.evidence.length >= EVIDENCE_MAX_FILES}>
                {t('respond.upload')}
              </Button>
            </Upload>
            <Typography.Text type="secondary">{t('respond.rules')}</Typography.Text>
          </Space>
          <label htmlFor="dispute-statement">
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('detail.statement')}
            </Typography.Title>
          </label>
          <Input.TextArea
            id="dispute-statement"
            value={statement}
            onChange={(e) => setStatement(e.target.value)}
            maxLength={STATEMENT_MAX}
            showCount
            autoSize={{ minRows: 4, maxRows: 12 }}
            placeholder={t('respond.statementPlaceholder')}
          />
          <Space wrap style={{ marginTop: 12 }}>
            <Button loading={busy} onClick={() => run(() => saveStatement(d.id, statement), t('respond.saved'))}>
              {t('respond.saveDraft')}
            </Button>
            <Popconfirm
              title={t('respond.submitConfirm')}
              okText={t('respond.ok')}
              cancelText={t('respond.cancel')}
              onConfirm={() =>
                run(async () => {
                  if (statement !== (d.statement ?? '')) await saveStatement(d.id, statement);
                  await submitDispute(d.id);
                }, t('respond.submitted'))
              }
            >
              <Button type="primary" loading={busy}>
                {t('respond.submit')}
              </Button>
            </Popconfirm>
            <Popconfirm title={t('respond.acceptConfirm')} okText={t('respond.ok')} cancelText={t('respond.cancel')} onConfirm={() => run(() => acceptDispute(d.id), t('respond.accepted'))}>
              <Button danger loading={busy}>
                {t('respond.accept')}
              </Button>
            </Popconfirm>
          </Space>
        </Flex>
      )}
      {!open && d.statement && (
        <>
          <Typography.Title level={5}>{t('detail.statement')}</Typography.Title>
          <Typography.Paragraph className="dispute-statement">{d.statement}</Typography.Paragraph>
        </>
      )}
    </Card>
  );
}
