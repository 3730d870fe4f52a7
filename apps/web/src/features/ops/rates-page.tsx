import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, DatePicker, Drawer, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { CURRENCY_EXPONENT, OPS_RATES_WRITE_ROLES, OpsWorkApi } from '@portal/contract';
import { dayjs, formatInstant } from '../../lib/time';
import { opsRatesApi, type OpsRate, type OpsRateRequest, type OpsRateVersion } from './api/ops-rates-http';
import { mayDo, useOperator } from './ops-me';
import { opsQuery } from './api/ops-query';
import { apiKey } from '../../lib/api-query';

const CURRENCIES = Object.keys(CURRENCY_EXPONENT)
  .sort()
  .map((c) => ({ value: c, label: c }));
const COLOR = { PENDING: 'warning', APPROVED: 'success', REJECTED: 'error' } as const;
const RATE_RE = /^(0|[1-9]\d{0,11})(\.\d{1,12})?$/;

interface EntryForm {
  date: dayjs.Dayjs;
  from: string;
  to: string;
  rate: string;
  correction: boolean;
  note?: string;
}

/** Every version of one pair's rate of a day, and the requests made for it. */
function HistoryDrawer({ at, onClose }: { at: { date: string; from: string; to: string } | null; onClose: () => void }) {
  const { t } = useTranslation('opsRates');
  const h = useQuery({ ...opsQuery(OpsWorkApi.rateHistory, { date: at?.date ?? '', from: at?.from ?? '', to: at?.to ?? '' }), enabled: !!at });
  return (
    <Drawer open={!!at} onClose={onClose} width={720} title={at ? t('history.title', { pair: `${at.from} → ${at.to}`, date: at.date }) : ''} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('history.explain')}</Typography.Paragraph>
      <Table<OpsRateVersion>
        rowKey="entryId"
        size="small"
        loading={h.isLoading}
        dataSource={h.data?.versions ?? []}
        pagination={false}
        scroll={{ x: 560 }}
        columns={[
          {
            title: t('col.version'),
            dataIndex: 'entryId',
            render: (id: number, v) => (
              <>
                #{id} {v.current ? <Tag color="success">{t('history.current')}</Tag> : <Tag>{t('history.replaced')}</Tag>}
              </>
            ),
          },
          { title: t('col.rate'), dataIndex: 'rate', render: (r: string) => <span className="ops-rates__rate">{r}</span> },
          {
            title: t('col.source'),
            dataIndex: 'source',
            render: (s: string, v) => (
              <>
                {t(`source.${s}`)}
                <br />
                <Typography.Text type="secondary">{v.sourceRef ?? ''}</Typography.Text>
              </>
            ),
          },
          { title: t('col.entered'), dataIndex: 'createdAt', render: (s: string) => formatInstant(s) },
          { title: t('col.settled'), dataIndex: 'settledCount' },
        ]}
      />
      {h.data?.requests.length ? (
        <>
          <Typography.Title level={2} className="ops-rates__subtitle">
            {t('history.requests')}
          </Typography.Title>
          <Table<OpsRateRequest>
            rowKey="id"
            size="small"
            dataSource={h.data.requests}
            pagination={false}
            scroll={{ x: 560 }}
            columns={[
              {
                title: t('col.request'),
                dataIndex: 'id',
                render: (id: number, r) => (
                  <>
                    #{id} · {formatInstant(r.proposedAt)}
                  </>
                ),
              },
              { title: t('col.rate'), dataIndex: 'rate' },
              {
                title: t('col.people'),
                key: 'who',
                render: (_, r) => (
                  <>
                    {t('pending.proposedBy', { name: r.proposedBy })}
                    {r.decidedBy ? (
                      <>
                        <br />
                        {t('pending.decidedBy', { name: r.decidedBy })}
                      </>
                    ) : null}
                  </>
                ),
              },
              {
                title: t('col.status'),
                dataIndex: 'status',
                render: (s: OpsRateRequest['status'], r) => (
                  <>
                    <Tag color={COLOR[s]}>{t(`status.${s}`)}</Tag>
                    {r.reason ? <div>{r.reason}</div> : null}
                  </>
                ),
              },
            ]}
          />
        </>
      ) : null}
    </Drawer>
  );
}

/** Exchange rates (issue 46): the rates in force, entry under four eyes, each pair's history of a day. */
export default function RatesPage() {
  const { t } = useTranslation('opsRates');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const canWrite = mayDo(me, OPS_RATES_WRITE_ROLES);
  const [range, setRange] = useState<[dayjs.Dayjs, dayjs.Dayjs]>([dayjs().subtract(30, 'day'), dayjs().add(1, 'day')]);
  const [pairText, setPairText] = useState('');
  const typed = pairText.toUpperCase().replace(/\s/g, '').replace('→', '>');
  // The list filters by a complete pair only ("USD>HKD"); anything else lists every pair.
  const pair = /^[A-Z]{3}>[A-Z]{3}$/.test(typed) ? typed : undefined;
  const [entering, setEntering] = useState(false);
  const [history, setHistory] = useState<{ date: string; from: string; to: string } | null>(null);
  const [deciding, setDeciding] = useState<{ row: OpsRateRequest; how: 'approve' | 'reject' } | null>(null);
  const [entry] = Form.useForm<EntryForm>();
  const [decision] = Form.useForm<{ reason: string }>();
  const from = range[0].format('YYYY-MM-DD');
  const to = range[1].format('YYYY-MM-DD');
  const list = useQuery(opsQuery(OpsWorkApi.rates, { from, to, pair }));
  const refresh = () => void qc.invalidateQueries({ queryKey: apiKey(OpsWorkApi.rates) });
  const propose = useMutation({
    mutationFn: (v: EntryForm) =>
      opsRatesApi.propose({ date: v.date.format('YYYY-MM-DD'), from: v.from, to: v.to, rate: v.rate.trim(), correction: !!v.correction, note: v.note?.trim() || undefined }),
    onSuccess: (r) => {
      void message.success(t('enter.sent', { id: r.id }));
      setEntering(false);
      entry.resetFields();
      refresh();
    },
  });
  const decide = useMutation({
    mutationFn: (reason: string) => opsRatesApi.decide(deciding!.row.id, deciding!.how, reason),
    onSuccess: (r) => {
      void message.success(r.msg && r.settledWithPrevious ? r.msg : t(r.status === 'APPROVED' ? 'pending.approved' : 'pending.rejected', { id: r.id }));
      setDeciding(null);
      decision.resetFields();
      refresh();
    },
  });
  // The figure in force for the form's day and pair (when that day is in the list): a new figure is a correction.
  const watched = Form.useWatch([], entry) as Partial<EntryForm> | undefined;
  const inForce =
    watched?.date && watched.from && watched.to ? list.data?.rates.find((r) => r.date === watched.date!.format('YYYY-MM-DD') && r.from === watched.from && r.to === watched.to) : undefined;
  const pending = list.data?.pending ?? [];
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('explain')}</Typography.Paragraph>
      <div className="ops-toolbar">
        <DatePicker.RangePicker aria-label={t('dates')} value={range} allowClear={false} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        <Input aria-label={t('pair')} placeholder={t('pairHint')} allowClear style={{ width: 180 }} value={pairText} maxLength={9} onChange={(e) => setPairText(e.target.value)} />
        {canWrite ? (
          <Button type="primary" onClick={() => setEntering(true)}>
            {t('enter.button')}
          </Button>
        ) : null}
      </div>
      {pending.length ? (
        <section aria-label={t('pending.title')} className="ops-rates__pending">
          <Typography.Title level={2} className="ops-rates__subtitle">
            {t('pending.title')}
          </Typography.Title>
          <Table<OpsRateRequest>
            rowKey="id"
            size="small"
            dataSource={pending}
            pagination={false}
            scroll={{ x: 900 }}
            columns={[
              {
                title: t('col.request'),
                dataIndex: 'id',
                render: (id: number, r) => (
                  <>
                    #{id} · {formatInstant(r.proposedAt)}
                  </>
                ),
              },
              {
                title: t('col.day'),
                key: 'day',
                render: (_, r) => (
                  <span className="ops-rates__nowrap">
                    {r.date} · {r.from} → {r.to}
                  </span>
                ),
              },
              {
                title: t('col.rate'),
                dataIndex: 'rate',
                render: (v: string, r) => (
                  <>
                    <span className="ops-rates__rate">{v}</span>
                    {r.correction ? (
                      <>
                        {' '}
                        <Tag color="orange">{t('pending.correction')}</Tag>
                      </>
                    ) : null}
                    {r.currentRate ? <div>{t('pending.inForce', { rate: r.currentRate })}</div> : null}
                  </>
                ),
              },
              {
                title: t('col.people'),
                key: 'who',
                render: (_, r) => (
                  <>
                    {t('pending.proposedBy', { name: r.proposedBy })}
                    {r.note ? <div>{r.note}</div> : null}
                  </>
                ),
              },
              {
                title: t('col.actions'),
                key: 'a',
                render: (_, r) =>
                  canWrite ? (
                    <Space wrap>
                      <Button
                        size="small"
                        type="primary"
                        disabled={r.proposedBy === me.username}
                        title={r.proposedBy === me.username ? t('pending.ownRequest') : undefined}
                        onClick={() => setDeciding({ row: r, how: 'approve' })}
                      >
                        {t('pending.approve')}
                      </Button>
                      <Button size="small" danger disabled={r.proposedBy === me.username} onClick={() => setDeciding({ row: r, how: 'reject' })}>
                        {t('pending.reject')}
                      </Button>
                    </Space>
                  ) : null,
              },
            ]}
          />
          {pending.some((r) => r.proposedBy === me.username) ? <Typography.Paragraph type="secondary">{t('pending.ownRequest')}</Typography.Paragraph> : null}
        </section>
      ) : null}
      <Table<OpsRate>
        rowKey={(r) => `${r.date}|${r.from}|${r.to}`}
        loading={list.isLoading}
        dataSource={list.data?.rates ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: 760 }}
        locale={{ emptyText: t('empty') }}
        columns={[
          { title: t('col.date'), dataIndex: 'date', onCell: () => ({ className: 'ops-rates__nowrap' }) },
          {
            title: t('col.pair'),
            key: 'pair',
            render: (_, r) => (
              <span className="ops-rates__nowrap">
                {r.from} → {r.to}
              </span>
            ),
          },
          { title: t('col.rate'), dataIndex: 'rate', render: (v: string) => <span className="ops-rates__rate">{v}</span> },
          { title: t('col.source'), dataIndex: 'source', render: (s: string) => t(`source.${s}`) },
          { title: t('col.settled'), dataIndex: 'settledCount' },
          {
            title: t('col.history'),
            key: 'h',
            render: (_, r) => (
              <Button size="small" aria-label={t('history.open', { pair: `${r.from} → ${r.to}`, date: r.date })} onClick={() => setHistory({ date: r.date, from: r.from, to: r.to })}>
                {t('history.versions', { count: r.versions })}
              </Button>
            ),
          },
        ]}
      />
      <Modal
        title={t('enter.title')}
        open={entering}
        onCancel={() => setEntering(false)}
        onOk={() => entry.submit()}
        okText={t('enter.submit')}
        cancelText={t('cancel')}
        confirmLoading={propose.isPending}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('enter.fourEyes')}</Typography.Paragraph>
        <Form<EntryForm> form={entry} layout="vertical" requiredMark={false} initialValues={{ date: dayjs(), correction: false }} onFinish={(v) => propose.mutate(v)}>
          <Form.Item name="date" label={t('col.date')} rules={[{ required: true, message: t('form.required') }]}>
            <DatePicker maxDate={dayjs().add(1, 'day')} style={{ width: '100%' }} />
          </Form.Item>
          <Space.Compact block>
            <Form.Item name="from" label={t('enter.from')} rules={[{ required: true, message: t('form.required') }]} style={{ flex: 1 }}>
              <Select showSearch options={CURRENCIES} />
            </Form.Item>
            <Form.Item
              name="to"
              label={t('enter.to')}
              dependencies={['from']}
              style={{ flex: 1 }}
              rules={[
                { required: true, message: t('form.required') },
                ({ getFieldValue }) => ({ validator: (_, v) => (v && v === getFieldValue('from') ? Promise.reject(new Error(t('enter.samePair'))) : Promise.resolve()) }),
              ]}
            >
              <Select showSearch options={CURRENCIES} />
            </Form.Item>
          </Space.Compact>
          <Form.Item
            name="rate"
            label={t('col.rate')}
            extra={t('enter.rateHint')}
            rules={[
              { required: true, message: t('form.required') },
              { validator: (_, v: string | undefined) => (!v || (RATE_RE.test(v.trim()) && /[1-9]/.test(v)) ? Promise.resolve() : Promise.reject(new Error(t('enter.rateInvalid')))) },
            ]}
          >
            <Input inputMode="decimal" autoComplete="off" />
          </Form.Item>
          {inForce ? (
            <Alert
              className="ops-rates__alert"
              type="warning"
              showIcon
              message={t('enter.exists', { rate: inForce.rate })}
              description={inForce.settledCount ? t('enter.settledKeep', { count: inForce.settledCount }) : undefined}
            />
          ) : null}
          <Form.Item name="correction" valuePropName="checked">
            <Checkbox>{t('enter.correction')}</Checkbox>
          </Form.Item>
          <Form.Item name="note" label={t('enter.note')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        title={deciding ? t(deciding.how === 'approve' ? 'pending.approveTitle' : 'pending.rejectTitle', { id: deciding.row.id }) : ''}
        open={!!deciding}
        onCancel={() => setDeciding(null)}
        onOk={() => decision.submit()}
        okText={deciding?.how === 'reject' ? t('pending.reject') : t('pending.approve')}
        okButtonProps={{ danger: deciding?.how === 'reject' }}
        cancelText={t('cancel')}
        confirmLoading={decide.isPending}
        destroyOnHidden
      >
        {deciding ? (
          <Typography.Paragraph>
            {deciding.row.date} · {deciding.row.from} → {deciding.row.to} · <span className="ops-rates__rate">{deciding.row.rate}</span>
            {deciding.row.currentRate ? <> ({t('pending.inForce', { rate: deciding.row.currentRate })})</> : null}
          </Typography.Paragraph>
        ) : null}
        {deciding?.how === 'approve' && deciding.row.settledWithCurrent ? (
          <Alert className="ops-rates__alert" type="warning" showIcon message={t('enter.settledKeep', { count: deciding.row.settledWithCurrent })} />
        ) : null}
        <Form form={decision} layout="vertical" requiredMark={false} onFinish={(v) => decide.mutate(v.reason)}>
          <Form.Item name="reason" label={t('pending.reason')} rules={[{ required: true, whitespace: true, min: 3, message: t('form.required') }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
      <HistoryDrawer at={history} onClose={() => setHistory(null)} />
    </>
  );
}
