import { useState } from 'react';
import { Button, Flex, Form, Grid, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { APPROVAL_STATUSES, TeamApi, type ApprovalGrant, type ApprovalRow } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { useFocusableScroll } from '../../components/focusable-scroll';
import { formatAmount } from '../../components/money';
import { RequestError } from '../../lib/http';
import { formatPlatform } from '../../lib/time';
import { useApp } from '../../app/lazy-app';
import { checkPassword } from '../txn/api/refund';
import { decideApproval, useApprovalList } from './api/approvals';
import { permKey } from './components/permission-picker';
import { apiKey } from '../../lib/api-query';

const STATUS_COLOR: Record<ApprovalRow['status'], string> = { PENDING: 'processing', APPROVED: 'success', REJECTED: 'error', EXPIRED: 'default' };

/** What a request asks, in the user's language. */
function Summary({ r }: { r: ApprovalRow }) {
  const { t, i18n } = useTranslation(['approvals', 'team']);
  const s = r.summary as Record<string, string | string[]>;
  if (r.kind === 'refund') {
    return <span>{t('summary.refund', { order: s.orderNo, amount: formatAmount(String(s.amount), String(s.currency), i18n.language), currency: s.currency })}</span>;
  }
  if (r.kind === 'bank_change') {
    return <span>{t('summary.bankChange', { bank: s.bank, swift: s.swift, account: s.account, currency: s.currency, document: s.document })}</span>;
  }
  if (r.kind === 'policy_change') {
    if (s.policy === 'requireTotp') return <span>{t('summary.requireTotp', { merId: s.merId })}</span>;
    const rules = ((s.loosened as string[]) ?? []).map((k) => t(`summary.rule.${k}`)).join(t('approvals:listSeparator'));
    return (
      <Space direction="vertical" size={0}>
        <span>{t(s.policy === 'inactivity' ? 'summary.inactivity' : 'summary.policy', { merId: s.merId, rules })}</span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('summary.policyFrom', { before: s.before, after: s.after })}
        </Typography.Text>
      </Space>
    );
  }
  const added = ((s.added as string[]) ?? []).map((p) => t(`team:${permKey(p)}`)).join(t('approvals:listSeparator'));
  const caps = (s.capsLoosened as string[] | undefined)?.length ? ` ${t('summary.capsLoosened', { currencies: (s.capsLoosened as string[]).join(t('approvals:listSeparator')) })}` : '';
  if (s.newUser) return <span>{t('summary.newUser', { user: s.newUser, email: s.email, added })}</span>;
  if (s.enable) return <span>{t('summary.enable', { user: s.userName, added })}</span>;
  // Issue 47: a longer (or no) access end date of a user beyond read-only is a raise too.
  const end = s.accessEndsOn as unknown as { before: string | null; after: string | null } | undefined;
  const access = end ? t('summary.accessEndsOn', { user: s.userName, before: end.before ?? t('summary.noEnd'), after: end.after ?? t('summary.noEnd') }) : '';
  if (access && !added) return <span>{access + caps}</span>;
  return <span>{(s.userName ? t('summary.user', { user: s.userName, added }) : t('summary.role', { role: s.role, added })) + caps + (access ? ` ${access}` : '')}</span>;
}

/** Who created or raised a user (issue 47): "added by demo, 2026-12-01 10:00". */
function GrantLine({ g }: { g: ApprovalGrant }) {
  const { t } = useTranslation('approvals');
  return <>{t(`grant.${g.how}`, { by: g.by, time: formatPlatform(g.time) })}</>;
}

/** /merchant/approvals (issue 28): four-eyes requests waiting for a second user; approve (a refund asks for the password again) or reject. */
export function ApprovalsPage() {
  const { t } = useTranslation(['approvals', 'team']);
  const tableFrame = useFocusableScroll(t('layout:resultsTable'));
  const { message } = useApp();
  const qc = useQueryClient();
  const [status, setStatus] = useState<string>('PENDING');
  const [page, setPage] = useState(0);
  const list = useApprovalList({ status: status || undefined, page, size: 10 });
  const [deciding, setDeciding] = useState<{ r: ApprovalRow; approve: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ password?: string; note?: string }>();
  // On a phone the actions column scrolls with the rest (a fixed one would hide what is asked).
  const wide = Grid.useBreakpoint().md;

  const submit = async (v: { password?: string; note?: string }) => {
    if (!deciding) return;
    setBusy(true);
    try {
      if (deciding.approve && deciding.r.kind === 'refund') await checkPassword(v.password ?? '');
      const done = await decideApproval(deciding.r.id, deciding.approve, v.note ?? '');
      const res = done.result as { code?: number; msg?: string } | null;
      if (deciding.approve && res && res.code !== 0) message.warning(res.msg ?? t('failed'));
      else message.success(t(deciding.approve ? 'approved' : 'rejected', { id: done.id }));
      setDeciding(null);
      await qc.invalidateQueries({ queryKey: apiKey(TeamApi.approvals) });
    } catch (e) {
      message.error(e instanceof RequestError ? e.message : t('failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageContainer>
      <Flex gap={12} align="center" wrap style={{ marginBottom: 16 }}>
        <label htmlFor="approval-status">{t('filter.status')}</label>
        <Select
          id="approval-status"
          style={{ width: 180 }}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(0);
          }}
          options={[{ value: '', label: t('filter.all') }, ...APPROVAL_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))]}
        />
        <Typography.Text type="secondary">{t('intro')}</Typography.Text>
      </Flex>
      <div ref={tableFrame}>
        <Table<ApprovalRow>
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.content ?? []}
          scroll={{ x: 1080 }}
          locale={{ emptyText: <Typography.Text type="secondary">{t('empty')}</Typography.Text> }}
          pagination={{ current: page + 1, pageSize: 10, total: list.data?.totalElements ?? 0, onChange: (p) => setPage(p - 1), showSizeChanger: false }}
          columns={[
            { title: t('column.id'), dataIndex: 'id', width: 70, render: (v: number) => `#${v}` },
            { title: t('column.what'), key: 'what', width: 250, render: (_: unknown, r) => <Summary r={r} /> },
            { title: t('column.kind'), dataIndex: 'kind', width: 120, render: (v: ApprovalRow['kind']) => t(`kind.${v}`) },
            { title: t('column.requestedBy'), dataIndex: 'requestedBy', width: 130 },
            {
              // asked and expiring in one column: room for who decided and who created the decider (issue 47)
              title: `${t('column.requestTime')} / ${t('column.expireTime')}`,
              dataIndex: 'requestTime',
              width: 180,
              render: (v: string, r) => (
                <Space direction="vertical" size={0}>
                  <span>{formatPlatform(v)}</span>
                  <Typography.Text type="secondary">{formatPlatform(r.expireTime)}</Typography.Text>
                </Space>
              ),
            },
            {
              title: t('column.status'),
              dataIndex: 'status',
              width: 200,
              render: (v: ApprovalRow['status'], r) => (
                <Space direction="vertical" size={0}>
                  <Tag color={STATUS_COLOR[v]}>{t(`status.${v}`)}</Tag>
                  {r.decidedBy && <Typography.Text type="secondary">{r.decidedBy}</Typography.Text>}
                  {r.deciderGrants.slice(0, 2).map((g, i) => (
                    <Typography.Text key={i} type="secondary" style={{ fontSize: 12 }} data-testid="decider-grant">
                      <GrantLine g={g} />
                    </Typography.Text>
                  ))}
                </Space>
              ),
            },
            {
              title: t('team:column.actions'),
              key: 'actions',
              width: 170,
              fixed: wide ? 'right' : undefined,
              render: (_: unknown, r) =>
                r.canDecide ? (
                  <Space size={0}>
                    <Button type="link" size="small" onClick={() => setDeciding({ r, approve: true })} aria-label={`${t('approve')} #${r.id}`}>
                      {t('approve')}
                    </Button>
                    <Button type="link" size="small" danger onClick={() => setDeciding({ r, approve: false })} aria-label={`${t('reject')} #${r.id}`}>
                      {t('reject')}
                    </Button>
                  </Space>
                ) : r.yourGrant ? (
                  <Typography.Text style={{ fontSize: 12 }} data-testid="your-grant">
                    {t('yourGrant', { by: r.yourGrant.by })} <GrantLine g={r.yourGrant} />
                  </Typography.Text>
                ) : null,
            },
          ]}
        />
      </div>
      <Modal
        open={!!deciding}
        title={deciding ? t(deciding.approve ? 'approveTitle' : 'rejectTitle', { id: deciding.r.id }) : ''}
        onCancel={() => setDeciding(null)}
        okText={deciding?.approve ? t('approve') : t('reject')}
        okButtonProps={{ danger: deciding ? !deciding.approve : false }}
        cancelText={t('team:form.cancel')}
        confirmLoading={busy}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        {deciding && (
          <Form form={form} layout="vertical" name="decide" onFinish={submit}>
            <Typography.Paragraph>
              <Summary r={deciding.r} />
            </Typography.Paragraph>
            {deciding.approve && deciding.r.kind === 'refund' && (
              <Form.Item name="password" label={t('password')} extra={t('passwordHelp')} rules={[{ required: true, message: t('team:form.required') }]}>
                <Input.Password autoComplete="current-password" />
              </Form.Item>
            )}
            {!deciding.approve && (
              <Form.Item name="note" label={t('note')}>
                <Input maxLength={200} />
              </Form.Item>
            )}
          </Form>
        )}
      </Modal>
    </PageContainer>
  );
}
