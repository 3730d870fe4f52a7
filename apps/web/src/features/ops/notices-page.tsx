import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Drawer, Form, Input, Popconfirm, Radio, Select, Space, Table, Tag, Typography, Upload, type UploadFile } from 'antd';
import type { Dayjs } from 'dayjs';
import { OpsMerchantsApi, type OpsNoticeRow, type OpsNoticeStatus } from '@portal/contract';
import { dayjs, displayZone, formatInstant, WIRE_DATETIME, zoneOffsetLabel } from '../../lib/time';
import { fileToBase64, opsNoticesApi, type OpsNoticeBody } from './api/ops-notices-http';
import { mayDo, useOperator } from './ops-me';
import { opsQuery } from './api/ops-query';
import { ofEndpoints } from '../../lib/api-query';

const STATUS_COLOR = { scheduled: 'processing', published: 'success', withdrawn: 'default' } as const;
/** Who writes notices (as the server's NOTICE_WRITERS). */
const WRITERS = ['support', 'onboarding'] as const;

interface FormValues {
  title: string;
  summary?: string;
  content: string;
  level: 'info' | 'important';
  target: 'all' | 'merchants' | 'group';
  merchants?: string[];
  groupId?: string;
  publishAt?: Dayjs | null;
  files?: UploadFile[];
}

/** Notices (decision 044): the list with status, target and times; a form to write, schedule or edit one; withdraw. */
export default function NoticesPage() {
  const { t } = useTranslation('opsNotices');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [status, setStatus] = useState<OpsNoticeStatus | undefined>();
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<OpsNoticeRow | 'new' | null>(null);
  const [removed, setRemoved] = useState<number[]>([]);
  const [merchantSearch, setMerchantSearch] = useState('');
  const [form] = Form.useForm<FormValues>();
  const target = Form.useWatch('target', form);
  const zone = displayZone();
  const canWrite = mayDo(me, WRITERS);
  const list = useQuery(opsQuery(OpsMerchantsApi.notices, { status, page, size: 20 }));
  // The merchant pickers search the server (id, name, company), 100 at a time.
  const merchants = useQuery({
    ...opsQuery(OpsMerchantsApi.list, { size: 100, search: merchantSearch || undefined }),
    enabled: editing !== null,
  });
  // The notices and the merchant pickers' search (both were under ['ops', 'notices'] before their keys came from the descriptors).
  const refresh = () => void qc.invalidateQueries({ predicate: ofEndpoints(OpsMerchantsApi.notices, OpsMerchantsApi.list) });
  const save = useMutation({
    mutationFn: async (v: FormValues) => {
      const files = await Promise.all((v.files ?? []).map(async (f) => ({ name: f.name, contentBase64: await fileToBase64(f.originFileObj as Blob) })));
      const body: OpsNoticeBody = {
        title: v.title,
        summary: v.summary || undefined,
        content: v.content,
        level: v.level,
        target: v.target,
        merchants: v.target === 'merchants' ? v.merchants : undefined,
        groupId: v.target === 'group' ? v.groupId : undefined,
        publishAt: v.publishAt ? v.publishAt.format(WIRE_DATETIME) : undefined,
        timeZone: v.publishAt ? zone : undefined,
        files,
        removeAttachments: removed,
      };
      return editing === 'new' || !editing ? opsNoticesApi.create(body) : opsNoticesApi.edit(editing.id, body);
    },
    onSuccess: (n) => {
      void message.success(t(n.status === 'scheduled' ? 'scheduledDone' : 'publishedDone'));
      setEditing(null);
      refresh();
    },
  });
  const withdraw = useMutation({
    mutationFn: (id: number) => opsNoticesApi.withdraw(id),
    onSuccess: () => {
      void message.success(t('withdrawnDone'));
      refresh();
    },
  });
  function open(row: OpsNoticeRow | 'new') {
    setRemoved([]);
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        title: row.title,
        summary: row.summary === row.title ? undefined : row.summary,
        content: row.content,
        level: row.level,
        target: row.target,
        merchants: row.merchants,
        groupId: row.groupId ?? undefined,
        publishAt: dayjs(formatInstant(row.publishedAt, WIRE_DATETIME)),
        files: [],
      });
    setEditing(row);
  }
  const merchantOptions = (merchants.data?.content ?? []).map((m) => ({ value: m.merId, label: `${m.name} · ${m.merId}`, attribute: m.attribute }));
  const targetText = (r: OpsNoticeRow) => (r.target === 'all' ? t('target.all') : r.target === 'group' ? t('target.groupOf', { id: r.groupId }) : r.merchants.join(', '));
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('title')}
      </Typography.Title>
      <div className="ops-toolbar">
        <Select
          aria-label={t('status.label')}
          value={status}
          allowClear
          placeholder={t('status.label')}
          style={{ width: 160 }}
          onChange={(v) => {
            setStatus(v);
            setPage(0);
          }}
          options={(['scheduled', 'published', 'withdrawn'] as const).map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        {canWrite ? (
          <Button type="primary" onClick={() => open('new')}>
            {t('write')}
          </Button>
        ) : null}
      </div>
      <Table<OpsNoticeRow>
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.content ?? []}
        pagination={{ current: page + 1, pageSize: 20, total: list.data?.totalElements ?? 0, onChange: (p) => setPage(p - 1), showSizeChanger: false }}
        scroll={{ x: 900 }}
        columns={[
          {
            title: t('col.notice'),
            dataIndex: 'title',
            render: (v: string, r) => (
              <>
                {r.level === 'important' ? <Tag color="red">{t('level.important')}</Tag> : null}
                {v}
                {r.attachments.length ? (
                  <div>
                    <Typography.Text type="secondary">{r.attachments.map((a) => a.fileName).join(', ')}</Typography.Text>
                  </div>
                ) : null}
              </>
            ),
          },
          { title: t('status.label'), dataIndex: 'status', render: (s: OpsNoticeStatus) => <Tag color={STATUS_COLOR[s]}>{t(`status.${s}`)}</Tag> },
          { title: t('col.target'), key: 'target', render: (_, r) => targetText(r) },
          {
            title: t('col.times'),
            key: 'times',
            render: (_, r) => (
              <>
                {t('col.publishAt', { at: formatInstant(r.publishedAt) })}
                {r.withdrawnAt ? (
                  <>
                    <br />
                    {t('col.withdrawnAt', { at: formatInstant(r.withdrawnAt), by: r.withdrawnBy ?? '' })}
                  </>
                ) : null}
              </>
            ),
          },
          { title: t('col.by'), dataIndex: 'createdBy', render: (v: string | null) => v ?? '—' },
          {
            title: t('col.actions'),
            key: 'a',
            render: (_, r) =>
              canWrite && r.status !== 'withdrawn' ? (
                <Space wrap>
                  {r.status === 'scheduled' ? (
                    <Button size="small" onClick={() => open(r)}>
                      {t('edit')}
                    </Button>
                  ) : null}
                  <Popconfirm title={t('withdrawConfirm')} okText={t('withdraw')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={() => withdraw.mutate(r.id)}>
                    <Button size="small" danger>
                      {t('withdraw')}
                    </Button>
                  </Popconfirm>
                </Space>
              ) : null,
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('write') : editing ? t('editTitle', { id: editing.id }) : ''}
        open={editing !== null}
        onClose={() => setEditing(null)}
        width="min(640px, 100vw)"
        destroyOnHidden
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('cancel')}</Button>
            <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
              {t('save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical" requiredMark={false} initialValues={{ level: 'info', target: 'all' }} onFinish={(v) => save.mutate(v)}>
          <Form.Item name="title" label={t('field.title')} rules={[{ required: true, whitespace: true, message: t('field.required') }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="summary" label={t('field.summary')} extra={t('field.summaryHint')}>
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item name="content" label={t('field.content')} rules={[{ required: true, whitespace: true, message: t('field.required') }]}>
            <Input.TextArea rows={6} maxLength={20000} />
          </Form.Item>
          <Form.Item name="level" label={t('field.level')}>
            <Radio.Group
              options={[
                { value: 'info', label: t('level.info') },
                { value: 'important', label: t('level.important') },
              ]}
            />
          </Form.Item>
          <Form.Item name="target" label={t('field.target')}>
            <Radio.Group
              options={[
                { value: 'all', label: t('target.all') },
                { value: 'merchants', label: t('target.merchants') },
                { value: 'group', label: t('target.group') },
              ]}
            />
          </Form.Item>
          {target === 'merchants' ? (
            <Form.Item name="merchants" label={t('field.merchants')} rules={[{ required: true, message: t('field.required') }]}>
              <Select mode="multiple" showSearch filterOption={false} onSearch={setMerchantSearch} onBlur={() => setMerchantSearch('')} loading={merchants.isFetching} options={merchantOptions} />
            </Form.Item>
          ) : null}
          {target === 'group' ? (
            <Form.Item name="groupId" label={t('field.group')} extra={t('field.groupHint')} rules={[{ required: true, message: t('field.required') }]}>
              <Select
                showSearch
                filterOption={false}
                onSearch={setMerchantSearch}
                onBlur={() => setMerchantSearch('')}
                loading={merchants.isFetching}
                options={merchantOptions.filter((m) => m.attribute === 'GROUP')}
              />
            </Form.Item>
          ) : null}
          <Form.Item name="publishAt" label={t('field.publishAt', { zone: `${zone} (${zoneOffsetLabel(zone)})` })} extra={t('field.publishAtHint')}>
            <DatePicker showTime format={WIRE_DATETIME} style={{ width: '100%' }} />
          </Form.Item>
          {editing && editing !== 'new' && editing.attachments.length ? (
            <Form.Item label={t('field.attached')}>
              {editing.attachments.map((a) => (
                <div key={a.id}>
                  <Typography.Text delete={removed.includes(a.id)}>{a.fileName}</Typography.Text>{' '}
                  <Button size="small" type="link" onClick={() => setRemoved((r) => (r.includes(a.id) ? r.filter((x) => x !== a.id) : [...r, a.id]))}>
                    {removed.includes(a.id) ? t('keep') : t('remove')}
                  </Button>
                </div>
              ))}
            </Form.Item>
          ) : null}
          <Form.Item name="files" label={t('field.files')} extra={t('field.filesHint')} valuePropName="fileList" getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList}>
            <Upload beforeUpload={() => false} accept=".pdf,.csv,.png,.jpg,.jpeg" maxCount={5} multiple>
              <Button>{t('field.choose')}</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Drawer>
    </>
  );
}
