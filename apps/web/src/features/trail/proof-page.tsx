import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Dropdown, Flex, Table, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { brandName } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { Money } from '../../components/money';
import { displayZone, formatInstant, PLATFORM_TZ } from '../../lib/time';
import { downloadProof, useProof, useProofRows, type ProofLine, type ProofRow } from './api';
import './trail.css';

/**
 * /report/transfer/proof/:id (issue 49 §1): a transfer's deposit as an equation in its settlement
 * currency — every line signed, their sum the amount sent to the bank. A line opens its rows
 * (`?line=key`: the browser's back returns to the equation), with their total equal to the line.
 */
export function ProofPage() {
  const { t } = useTranslation('trail');
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const line = params.get('line');
  const proof = useProof(id);
  const [busy, setBusy] = useState<string | null>(null);
  const p = proof.data;
  const cur = p?.transfer.currency ?? '';

  const download = async (format: 'csv' | 'pdf') => {
    setBusy(format);
    try {
      await downloadProof(id, format, displayZone());
    } finally {
      setBusy(null);
    }
  };

  const lineColumns: ColumnsType<ProofLine> = [
    {
      key: 'label',
      title: t('col.line'),
      render: (_, l) => (
        <Button type="link" className="trail-line-link" onClick={() => setParams({ line: l.key })} aria-label={`${t('openLine')} ${l.label}`}>
          {l.label}
        </Button>
      ),
    },
    { key: 'count', title: t('col.count'), width: 90, align: 'right', render: (_, l) => <span className="num">{l.count}</span> },
    {
      key: 'txn',
      title: t('col.txnAmount'),
      width: 230,
      responsive: ['md'],
      render: (_, l) =>
        l.txnCurrency && l.txnAmount ? (
          <div>
            <Money value={l.txnAmount} currency={l.txnCurrency} />
            <div className="trail-rate">{t('rate', { rate: l.rateMin === l.rateMax ? l.rateMin : `${l.rateMin} – ${l.rateMax}`, from: l.txnCurrency, to: cur })}</div>
          </div>
        ) : null,
    },
    { key: 'amount', title: t('col.amount', { cur }), width: 190, align: 'right', render: (_, l) => <Money value={l.amount} currency={cur} /> },
  ];

  return (
    <PageContainer>
      {proof.isError ? <Alert type="error" showIcon message={t('notFound')} /> : null}
      {p ? (
        <Flex vertical gap={16}>
          <Card size="small">
            <Flex justify="space-between" align="start" wrap gap={12}>
              <div>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {t('title')}
                </Typography.Title>
                <Typography.Text type="secondary">{t('statement', { cur, zone: PLATFORM_TZ, viewZone: displayZone() })}</Typography.Text>
              </div>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'pdf', label: t('exportPdf') },
                    { key: 'csv', label: t('exportCsv') },
                  ],
                  onClick: ({ key }) => void download(key as 'csv' | 'pdf'),
                }}
              >
                <Button icon={<DownloadOutlined />} loading={!!busy}>
                  {t('export')}
                </Button>
              </Dropdown>
            </Flex>
            <Descriptions
              size="small"
              column={{ xs: 1, md: 3 }}
              style={{ marginTop: 12 }}
              items={[
                { key: 'mer', label: t('merchant'), children: `${p.transfer.merId} - ${p.transfer.merName}` },
                { key: 'bus', label: t('busLine'), children: p.transfer.busLine },
                { key: 'cur', label: t('currency'), children: cur },
                { key: 'range', label: t('settleRange'), children: p.transfer.settleFrom === p.transfer.settleTo ? p.transfer.settleTo : `${p.transfer.settleFrom} – ${p.transfer.settleTo}` },
                { key: 'remit', label: t('remitDate'), children: p.transfer.remitDate ?? '—' },
                {
                  key: 'amount',
                  label: t('sent'),
                  children: (
                    <strong>
                      <Money value={p.transfer.amount} currency={cur} />
                    </strong>
                  ),
                },
              ]}
            />
          </Card>
          {line ? (
            <LineRows id={id} lineKey={line} currency={cur} onBack={() => setParams({})} />
          ) : (
            <Card size="small" title={t('equation')}>
              <Table<ProofLine>
                rowKey="key"
                size="small"
                pagination={false}
                columns={lineColumns}
                dataSource={p.lines}
                summary={() => (
                  <Table.Summary.Row className="trail-total">
                    <Table.Summary.Cell index={0}>
                      <strong>{t('sentTotal')}</strong> {p.balanced ? <Tag className="trail-tag-ok">{t('balanced')}</Tag> : <Tag className="trail-tag-bad">{t('unbalanced', { total: p.total })}</Tag>}
                    </Table.Summary.Cell>
                    <Table.Summary.Cell index={1} />
                    <Table.Summary.Cell index={2} className="trail-md-only" />
                    <Table.Summary.Cell index={3} align="right">
                      <Money value={p.transfer.amount} currency={cur} strong />
                    </Table.Summary.Cell>
                  </Table.Summary.Row>
                )}
              />
            </Card>
          )}
        </Flex>
      ) : null}
    </PageContainer>
  );
}

function LineRows({ id, lineKey, currency, onBack }: { id: string; lineKey: string; currency: string; onBack: () => void }) {
  const { t } = useTranslation('trail');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(20);
  const rows = useProofRows(id, lineKey, page, size);
  const d = rows.data;
  const columns: ColumnsType<ProofRow> = [
    {
      key: 'day',
      title: t('col.day'),
      width: 130,
      render: (_, r) => (
        <span>
          {r.day} {r.late ? <Tag className="trail-tag-late">{t('late')}</Tag> : null}
        </span>
      ),
    },
    {
      key: 'ref',
      title: t('col.ref'),
      render: (_, r) => (r.kind === 'txn' && r.txnId ? <Link to={`/txn/detail/${r.txnId}`}>{r.ref}</Link> : r.kind === 'reserve' ? t('reserveRef', { date: r.ref }) : r.ref || r.day),
    },
    { key: 'time', title: t('col.time'), width: 160, responsive: ['md'], render: (_, r) => (r.txnTime ? formatInstant(r.txnTime) : '') },
    { key: 'brand', title: t('col.brand'), width: 120, responsive: ['lg'], render: (_, r) => (r.brand ? brandName(r.brand) : '') },
    {
      key: 'txn',
      title: t('col.txnAmount'),
      width: 200,
      responsive: ['md'],
      render: (_, r) =>
        r.txnAmount && r.txnCurrency ? (
          <div>
            <Money value={r.txnAmount} currency={r.txnCurrency} />
            <div className="trail-rate">× {r.rate}</div>
          </div>
        ) : null,
    },
    { key: 'amount', title: t('col.amount', { cur: currency }), width: 170, align: 'right', render: (_, r) => <Money value={r.amount} currency={currency} /> },
  ];
  return (
    <Card
      size="small"
      title={d?.line.label ?? ''}
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
          {t('back')}
        </Button>
      }
    >
      <Table<ProofRow>
        rowKey={(r) => `${r.kind}|${r.txnId ?? ''}|${r.ref}|${r.day}`}
        size="small"
        loading={rows.isFetching}
        columns={columns}
        dataSource={d?.content ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page + 1,
          pageSize: size,
          total: d?.totalElements ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (p, s) => {
            setPage(s === size ? p - 1 : 0);
            setSize(s);
          },
        }}
        summary={() =>
          d ? (
            <Table.Summary.Row className="trail-total">
              <Table.Summary.Cell index={0} colSpan={2}>
                <strong>{t('rowsTotal', { n: d.totalElements })}</strong>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} colSpan={3} className="trail-md-only" />
              <Table.Summary.Cell index={5} align="right">
                <Money value={d.sum} currency={currency} strong />
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      {d && d.sum !== d.line.amount ? <Alert type="error" message={t('rowsDiffer')} /> : null}
    </Card>
  );
}
