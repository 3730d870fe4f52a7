import { useState } from 'react';
import { Alert, Button, Card, Flex, Grid, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { CheckOutlined, ReloadOutlined, UndoOutlined, UploadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BankEntry, BankImportResult, BankMatch, BankMatching, BankStatementRow, BankTransfer } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { DateRangeFilter, type DateRange } from '../../components/date-range-filter';
import { MerchantSelect } from '../../components/merchant-select';
import { Money, formatAmount } from '../../components/money';
import { usePageParams } from '../../lib/paging';
import { dayjs } from '../../lib/time';
import { useApp } from '../../app/lazy-app';
import { useMatchAction, useMatching, useStatements } from './api/bankrec';
import { UploadDialog } from './upload-dialog';
import { WhyList } from './why-list';

// Status colours only: the theme darkens them to 4.5:1 on their tint (theme.ts, Tag).
const KIND_COLOR: Record<BankMatch['kind'], string> = { exact: 'success', fee: 'warning', batch: 'processing', split: 'processing', manual: 'default' };

/** A calendar day of the bank (YYYY-MM-DD) in the user's language. */
function useDay() {
  const { i18n } = useTranslation();
  return (d: string | null) => (d ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`)) : '—');
}

function EntryLine({ e }: { e: BankEntry }) {
  const day = useDay();
  return (
    <Space direction="vertical" size={0} style={{ width: '100%' }}>
      <Flex justify="space-between" gap={8}>
        <span>{day(e.bookingDate)}</span>
        <span style={{ minWidth: 110 }}>
          <Money value={e.amount} currency={e.currency} />
        </span>
      </Flex>
      {(e.reference || e.counterparty) && (
        <Typography.Text type="secondary" style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
          {[e.reference, e.counterparty].filter(Boolean).join(' · ')}
        </Typography.Text>
      )}
    </Space>
  );
}

function TransferLine({ x }: { x: BankTransfer }) {
  const { t } = useTranslation('bankrec');
  const day = useDay();
  return (
    <Space direction="vertical" size={0} style={{ width: '100%' }}>
      <Flex justify="space-between" gap={8}>
        <span>{t('remitOn', { date: day(x.remitDate) })}</span>
        <span style={{ minWidth: 110 }}>
          <Money value={x.amount} currency={x.currency} />
        </span>
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('transferOf', { line: x.busLine, date: day(x.txnSetDate), mer: x.merId })}
      </Typography.Text>
    </Space>
  );
}

function MatchingTab() {
  const { t, i18n } = useTranslation('bankrec');
  const { message } = useApp();
  const narrow = !Grid.useBreakpoint().md;
  const [params, setParams] = useSearchParams();
  const begin = params.get('beginDate') ?? dayjs().subtract(30, 'day').format('YYYY-MM-DD');
  const end = params.get('endDate') ?? dayjs().format('YYYY-MM-DD');
  const merId = params.get('merId') ?? undefined;
  const { data, isFetching, refetch } = useMatching({ merId, beginDate: begin, endDate: end });
  const act = useMatchAction();
  const [selected, setSelected] = useState<number[]>([]);
  const set = (k: string, v: string | undefined) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (v) n.set(k, v);
      else n.delete(k);
      return n;
    });
  const matches = data?.matches ?? [];
  const proposed = matches.filter((m) => m.state === 'proposed');
  const run = async (action: 'confirm' | 'undo' | 'bulk', ids: number[], done: string) => {
    await act.mutateAsync({ action, ids });
    setSelected([]);
    message.success(done);
  };

  const matchCols: ColumnsType<BankMatch> = [
    {
      key: 'kind',
      title: t('col.match'),
      width: 170,
      render: (_, m) => (
        <Space direction="vertical" size={2}>
          <Space size={4} wrap>
            <Tag color={m.state === 'confirmed' ? 'success' : 'processing'}>{t(`state.${m.state}`)}</Tag>
            <Tag color={KIND_COLOR[m.kind]}>{t(`kind.${m.kind}`)}</Tag>
          </Space>
          {m.kind === 'fee' || Number(m.fee) > 0 ? (
            <Typography.Text style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
              {t('feeOf')} {formatAmount(m.fee, m.currency, i18n.language)} {m.currency}
            </Typography.Text>
          ) : null}
          {m.byReference && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('byReference')}
            </Typography.Text>
          )}
          {m.confirmedBy && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('confirmedBy', { name: m.confirmedBy, at: m.confirmedAt ?? '' })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      key: 'credits',
      title: t('col.credits'),
      render: (_, m) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {m.entries.map((e) => (
            <EntryLine key={e.id} e={e} />
          ))}
        </Space>
      ),
    },
    {
      key: 'transfers',
      title: t('col.transfers'),
      render: (_, m) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {m.transfers.map((x) => (
            <TransferLine key={x.id} x={x} />
          ))}
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('col.actions'),
      width: 130,
      render: (_, m) => (
        <Space direction="vertical" size={4}>
          {m.state === 'proposed' && (
            <Button size="small" type="primary" icon={<CheckOutlined />} aria-label={`${t('confirm')} #${m.id}`} onClick={() => void run('confirm', [m.id], t('done.confirmed'))}>
              {t('confirm')}
            </Button>
          )}
          <Button
            size="small"
            icon={<UndoOutlined />}
            aria-label={`${m.state === 'confirmed' ? t('undo') : t('dismiss')} #${m.id}`}
            onClick={() => void run('undo', [m.id], m.state === 'confirmed' ? t('done.undone') : t('done.dismissed'))}
          >
            {m.state === 'confirmed' ? t('undo') : t('dismiss')}
          </Button>
        </Space>
      ),
    },
  ];
  const narrowMatch: ColumnsType<BankMatch> = [
    {
      key: 'all',
      title: t('col.match'),
      render: (_, m) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {matchCols[0].render!(undefined, m, 0) as React.ReactNode}
          {m.entries.map((e) => (
            <EntryLine key={e.id} e={e} />
          ))}
          <Typography.Text type="secondary">↔</Typography.Text>
          {m.transfers.map((x) => (
            <TransferLine key={x.id} x={x} />
          ))}
          <Space>{matchCols[3].render!(undefined, m, 0) as React.ReactNode}</Space>
        </Space>
      ),
    },
  ];
  type Credit = BankMatching['unmatchedCredits'][number];
  type Missing = BankMatching['transfersWithoutCredit'][number];
  const creditCols: ColumnsType<Credit> = [
    { key: 'entry', title: t('col.credit'), render: (_, c) => <EntryLine e={c.entry} /> },
    { key: 'why', title: t('col.why'), render: (_, c) => <WhyList why={c.why} nearest={c.nearest} /> },
  ];
  const missingCols: ColumnsType<Missing> = [
    { key: 'transfer', title: t('col.transfer'), render: (_, x) => <TransferLine x={x.transfer} /> },
    { key: 'why', title: t('col.why'), render: (_, x) => <WhyList why={x.why} nearest={x.nearest} /> },
  ];
  const range: DateRange = [dayjs(begin), dayjs(end)];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Flex wrap gap={8} align="center">
        <MerchantSelect value={merId} onChange={(v) => set('merId', v)} placeholder={t('allMerchants')} aria-label={t('upload.merchant')} />
        <DateRangeFilter
          value={range}
          allowClear={false}
          aria-label={t('range')}
          onChange={(v) =>
            v &&
            setParams((p) => {
              const n = new URLSearchParams(p);
              n.set('beginDate', v[0].format('YYYY-MM-DD'));
              n.set('endDate', v[1].format('YYYY-MM-DD'));
              return n;
            })
          }
        />
        <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
          {t('refresh')}
        </Button>
      </Flex>
      <Flex wrap gap={8}>
        <Tag color="success">{t('count.confirmed', { count: matches.length - proposed.length })}</Tag>
        <Tag color="processing">{t('count.proposed', { count: proposed.length })}</Tag>
        <Tag color="warning">{t('count.unmatched', { count: data?.unmatchedCredits.length ?? 0 })}</Tag>
        <Tag color="error">{t('count.missing', { count: data?.transfersWithoutCredit.length ?? 0 })}</Tag>
      </Flex>
      <Card
        size="small"
        title={
          <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
            {t('section.matches')}
          </Typography.Title>
        }
        extra={
          <Button type="primary" disabled={!selected.length} onClick={() => void run('bulk', selected, t('done.bulk', { count: selected.length }))}>
            {t('bulkConfirm', { count: selected.length })}
          </Button>
        }
      >
        <Table<BankMatch>
          rowKey="id"
          size="small"
          columns={narrow ? narrowMatch : matchCols}
          dataSource={matches}
          loading={isFetching && !data}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys.map(Number)),
            getCheckboxProps: (m) => ({ disabled: m.state !== 'proposed', 'aria-label': t('select', { id: m.id }) }),
          }}
          locale={{ emptyText: <Typography.Text type="secondary">{t('empty.matches')}</Typography.Text> }}
        />
      </Card>
      <Card
        size="small"
        title={
          <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
            {t('section.unmatched')}
          </Typography.Title>
        }
      >
        <Table<Credit>
          rowKey={(c) => c.entry.id}
          size="small"
          columns={creditCols}
          dataSource={data?.unmatchedCredits ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Typography.Text type="secondary">{t('empty.unmatched')}</Typography.Text> }}
        />
      </Card>
      <Card
        size="small"
        title={
          <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
            {t('section.missing')}
          </Typography.Title>
        }
      >
        <Table<Missing>
          rowKey={(x) => x.transfer.id}
          size="small"
          columns={missingCols}
          dataSource={data?.transfersWithoutCredit ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          locale={{ emptyText: <Typography.Text type="secondary">{t('empty.missing')}</Typography.Text> }}
        />
      </Card>
    </Space>
  );
}

function StatementsTab() {
  const { t } = useTranslation('bankrec');
  const day = useDay();
  const narrow = !Grid.useBreakpoint().md;
  const { page, size, pagination } = usePageParams();
  const { data, isFetching } = useStatements(undefined, page, size);
  const cols: ColumnsType<BankStatementRow> = [
    {
      key: 'statement',
      title: t('col.statement'),
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
            {s.stmtRef}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
            {s.account} · {s.currency}
          </Typography.Text>
          <Space size={4} wrap>
            <Tag>{t(`format.${s.format}`)}</Tag>
            {s.balanceNote && (
              <Tooltip title={s.balanceNote.text}>
                <Tag color="warning" tabIndex={0}>
                  {t('balanceAccepted')}
                </Tag>
              </Tooltip>
            )}
          </Space>
        </Space>
      ),
    },
    { key: 'period', title: t('col.period'), render: (_, s) => `${day(s.fromDate)} – ${day(s.toDate)}` },
    {
      key: 'balances',
      title: t('col.balances'),
      render: (_, s) =>
        s.opening === null ? (
          <Typography.Text type="secondary">{t('noBalances')}</Typography.Text>
        ) : (
          <Space direction="vertical" size={0} style={{ minWidth: 140 }}>
            <Money value={s.opening} currency={s.currency} />
            <Money value={s.closing} currency={s.currency} />
          </Space>
        ),
    },
    {
      key: 'entries',
      title: t('col.entries'),
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <span>{t('entries', { count: s.entryCount })}</span>
          {s.addedCount < s.entryCount && <Typography.Text type="secondary">{t('overlap', { count: s.entryCount - s.addedCount })}</Typography.Text>}
          <Typography.Text type="secondary">{t('creditsMatched', { matched: s.matched, credits: s.credits })}</Typography.Text>
        </Space>
      ),
    },
    {
      key: 'uploaded',
      title: t('col.uploaded'),
      render: (_, s) => (
        <Space direction="vertical" size={0}>
          <span>{s.uploadedAt.slice(0, 16)}</span>
          <Typography.Text type="secondary" style={{ overflowWrap: 'anywhere' }}>
            {t('by', { name: s.uploadedBy ?? '—', file: s.fileName })}
          </Typography.Text>
        </Space>
      ),
    },
  ];
  return (
    <Table<BankStatementRow>
      rowKey="id"
      size="middle"
      columns={narrow ? cols.filter((c) => c.key === 'statement' || c.key === 'entries') : cols}
      dataSource={data?.content ?? []}
      loading={isFetching && !data}
      locale={{ emptyText: <Typography.Text type="secondary">{t('empty.statements')}</Typography.Text> }}
      pagination={pagination(data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
    />
  );
}

/** /bankrec: bank statements (upload, list) and their matching to transfers (issue 49 §2). */
export function BankrecPage() {
  const { t } = useTranslation('bankrec');
  const [params, setParams] = useSearchParams();
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<BankImportResult | null>(null);
  const tab = params.get('tab') === 'statements' ? 'statements' : 'matching';
  return (
    <PageContainer
      card={false}
      extra={
        <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)}>
          {t('upload.open')}
        </Button>
      }
    >
      {result && (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setResult(null)}
          style={{ marginBottom: 12 }}
          message={t('upload.done', {
            statements: result.statements.filter((s) => s.outcome === 'imported').length,
            duplicates: result.statements.filter((s) => s.outcome === 'duplicate').length,
            added: result.statements.reduce((n, s) => n + s.added, 0),
            proposed: result.proposed,
          })}
        />
      )}
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(k) =>
            setParams((p) => {
              const n = new URLSearchParams(p);
              n.set('tab', k);
              return n;
            })
          }
          items={[
            { key: 'matching', label: t('tab.matching'), children: <MatchingTab /> },
            { key: 'statements', label: t('tab.statements'), children: <StatementsTab /> },
          ]}
        />
      </Card>
      <UploadDialog open={uploading} onClose={() => setUploading(false)} onDone={setResult} />
    </PageContainer>
  );
}
