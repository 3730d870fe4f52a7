import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Drawer, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import { OpsMerchantsApi, toDecimal } from '@portal/contract';
import { formatInstant } from '../../lib/time';
import { opsMerchantsApi, type OpsMerchant } from './api/ops-http';
import { feeToApi, fieldsOf, MerchantFormFields, valuesOf, type MerchantFormValues } from './merchant-form';
import { mayDo, useOperator } from './ops-me';
import { FeeSchedules } from './fee-schedules';

const PAGE = 20;

import { ViewAsButton } from './view-as-button';
import { opsQuery } from './api/ops-query';
import { areaKey } from '../../lib/api-query';
/** Merchants (every role reads; onboarding creates and edits; risk locks): list, search, filters, detail. */
export default function MerchantsPage() {
  const { t } = useTranslation('ops');
  const me = useOperator();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [filters, setFilters] = useState<Record<string, string | undefined>>({});
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [locking, setLocking] = useState(false);
  const [form] = Form.useForm<MerchantFormValues>();
  const [lockForm] = Form.useForm<{ reason: string }>();
  const list = useQuery(opsQuery(OpsMerchantsApi.list, { ...filters, page, size: PAGE }));
  const groups = useQuery(opsQuery(OpsMerchantsApi.list, { attribute: 'GROUP', size: 100 }));
  const detail = useQuery({ ...opsQuery(OpsMerchantsApi.get, { merId: openId! }), enabled: !!openId });
  const refresh = () => void qc.invalidateQueries({ queryKey: areaKey(OpsMerchantsApi.list) });
  const canOnboard = mayDo(me, ['onboarding']);
  const canLock = mayDo(me, ['risk']);

  const save = useMutation({
    mutationFn: async (v: MerchantFormValues) => {
      if (editing && openId) return opsMerchantsApi.edit(openId, fieldsOf(v));
      return opsMerchantsApi.create({
        ...fieldsOf(v),
        attribute: v.attribute,
        parentId: v.parentId,
        fees: v.fees.map((f) => feeToApi(f, v.settleCurrency)),
        bankAccount: v.bankAccount,
        mainUser: v.attribute === 'SUB' ? undefined : v.mainUser,
      });
    },
    onSuccess: (out) => {
      void message.success(
        out && typeof out === 'object' && 'merId' in out ? t(out.mailed || !out.mainUserId ? 'merchants.created' : 'merchants.createdNoMail', { merId: out.merId }) : t('operators.saved'),
      );
      setCreating(false);
      setEditing(false);
      form.resetFields();
      refresh();
    },
  });
  const lock = useMutation({
    mutationFn: (reason: string) => opsMerchantsApi.lock(openId!, reason),
    onSuccess: () => {
      setLocking(false);
      lockForm.resetFields();
      refresh();
    },
  });

  const m = detail.data;
  const set = (k: string) => (v: string | undefined) => {
    setPage(0);
    setFilters((f) => ({ ...f, [k]: v || undefined }));
  };
  return (
    <>
      <Typography.Title level={1} className="ops-page-title">
        {t('merchants.title')}
      </Typography.Title>
      <div className="ops-toolbar" role="search">
        <Input.Search aria-label={t('merchants.search')} placeholder={t('merchants.search')} allowClear onSearch={set('search')} style={{ width: 260 }} />
        <Select
          aria-label={t('merchants.status')}
          placeholder={t('merchants.status')}
          allowClear
          style={{ width: 140 }}
          onChange={set('status')}
          options={['ACTIVE', 'LOCKED'].map((s) => ({ value: s, label: t(`merchantStatus.${s}`) }))}
        />
        <Select
          aria-label={t('merchants.attribute')}
          placeholder={t('merchants.attribute')}
          allowClear
          style={{ width: 160 }}
          onChange={set('attribute')}
          options={(['GROUP', 'SUB', 'INDEPENDENT'] as const).map((a) => ({ value: a, label: t(`attribute.${a}`) }))}
        />
        <Select
          aria-label={t('merchants.group')}
          placeholder={t('merchants.group')}
          allowClear
          showSearch
          optionFilterProp="label"
          style={{ width: 200 }}
          onChange={set('groupId')}
          options={(groups.data?.content ?? []).map((g) => ({ value: g.merId, label: g.name }))}
        />
        <Input aria-label={t('field.channels')} placeholder={t('merchants.channel')} allowClear style={{ width: 140 }} onChange={(e) => set('channel')(e.target.value.trim().toUpperCase())} />
        {canOnboard && (
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              setEditing(false);
              setCreating(true);
            }}
          >
            {t('merchants.new')}
          </Button>
        )}
      </div>
      <Table<OpsMerchant>
        rowKey="merId"
        loading={list.isLoading}
        dataSource={list.data?.content ?? []}
        scroll={{ x: 900 }}
        pagination={{ current: page + 1, pageSize: PAGE, total: list.data?.totalElements ?? 0, showSizeChanger: false, onChange: (p) => setPage(p - 1) }}
        columns={[
          {
            title: t('merchants.merId'),
            dataIndex: 'merId',
            render: (id: string) => (
              <Button type="link" onClick={() => setOpenId(id)}>
                {id}
              </Button>
            ),
          },
          { title: t('field.name'), dataIndex: 'name' },
          {
            title: t('merchants.attribute'),
            dataIndex: 'attribute',
            render: (a: OpsMerchant['attribute'], r) => (
              <>
                {t(`attribute.${a}`)}
                {r.parentName ? ` · ${r.parentName}` : ''}
              </>
            ),
          },
          { title: t('field.channels'), dataIndex: 'channels', render: (c: string[]) => c.join(', ') },
          { title: t('field.settleCurrency'), dataIndex: 'settleCurrency' },
          { title: t('merchants.status'), dataIndex: 'locked', render: (l: boolean) => <Tag color={l ? 'error' : 'success'}>{t(`merchantStatus.${l ? 'LOCKED' : 'ACTIVE'}`)}</Tag> },
          { title: t('operators.created'), dataIndex: 'createdAt', render: (v: string) => formatInstant(v) },
        ]}
      />
      <Drawer
        title={editing ? t('merchants.edit') : t('merchants.new')}
        open={creating}
        onClose={() => setCreating(false)}
        size="large"
        destroyOnHidden
        extra={
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            {t('merchants.save')}
          </Button>
        }
      >
        <Form<MerchantFormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => save.mutate(v)}
          initialValues={{
            attribute: 'GROUP',
            fees: [{ busLine: 'CARD', mdr: 2.5, cycleDays: 1, reserve: 0, reserveHoldDays: 0, fixedFee: '0', tranThreshold: '0', tranFee: '0', transferPeriod: 'D', disputeFee: '0' }],
          }}
        >
          <MerchantFormFields mode={editing ? 'edit' : 'create'} groups={(groups.data?.content ?? []).map((g) => ({ value: g.merId, label: `${g.name} (${g.merId})` }))} />
        </Form>
      </Drawer>
      <Drawer
        title={m ? `${m.name} · ${m.merId}` : ''}
        open={!!openId && !creating}
        onClose={() => setOpenId(null)}
        size="large"
        extra={
          m && (
            <div className="ops-toolbar">
              {canOnboard && (
                <Button
                  onClick={() => {
                    form.resetFields();
                    form.setFieldsValue(valuesOf(m));
                    setEditing(true);
                    setCreating(true);
                  }}
                >
                  {t('merchants.edit')}
                </Button>
              )}
              {canLock &&
                (m.locked ? (
                  <Button onClick={() => void opsMerchantsApi.unlock(m.merId).then(refresh, () => undefined)}>{t('merchants.unlock')}</Button>
                ) : (
                  <Button danger onClick={() => setLocking(true)}>
                    {t('merchants.lock')}
                  </Button>
                ))}
              <ViewAsButton merId={m.merId} merName={m.name} />
            </div>
          )
        }
      >
        {m && (
          <>
            {m.locked && <Tag color="error">{t('merchants.lockedBecause', { reason: m.lockReason ?? '' })}</Tag>}
            <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered className="ops-descriptions">
              <Descriptions.Item label={t('merchants.attribute')}>
                {t(`attribute.${m.attribute}`)}
                {m.parentName ? ` · ${m.parentName}` : ''}
              </Descriptions.Item>
              <Descriptions.Item label={t('field.corporationName')}>{m.corporationName}</Descriptions.Item>
              <Descriptions.Item label={t('field.country')}>{m.country}</Descriptions.Item>
              <Descriptions.Item label={t('field.mcc')}>{m.mcc}</Descriptions.Item>
              <Descriptions.Item label={t('field.channels')}>{m.channels.join(', ')}</Descriptions.Item>
              <Descriptions.Item label={t('field.currencies')}>{m.currencies.join(', ')}</Descriptions.Item>
              <Descriptions.Item label={t('field.settleCurrency')}>{m.settleCurrency}</Descriptions.Item>
            </Descriptions>
            <Typography.Title level={2} className="ops-section-title">
              {t('merchants.fees')}
            </Typography.Title>
            <Table
              size="small"
              rowKey="busLine"
              pagination={false}
              dataSource={m.fees}
              scroll={{ x: 700 }}
              columns={[
                { title: t('fee.busLine'), dataIndex: 'busLine' },
                { title: t('fee.mdr'), dataIndex: 'mdrBp', render: (v: number) => `${(v / 100).toFixed(2)}%` },
                { title: t('fee.fixedFee'), dataIndex: 'fixedFee', render: (v: number) => `${toDecimal(v, m.settleCurrency)} ${m.settleCurrency}` },
                { title: t('fee.cycle'), dataIndex: 'cycleDays', render: (v: number) => `T+${v}` },
                { title: t('fee.reserve'), dataIndex: 'reserveBp', render: (v: number, r) => `${(v / 100).toFixed(2)}% / ${r.reserveHoldDays}` },
                {
                  title: t('fee.tranFee'),
                  dataIndex: 'tranFee',
                  render: (v: number, r) => `${toDecimal(v, m.settleCurrency)} ≥ ${toDecimal(r.tranThreshold, m.settleCurrency)} · ${r.transferPeriod}`,
                },
                { title: t('fee.disputeFee'), dataIndex: 'disputeFee', render: (v: number) => `${toDecimal(v ?? 0, m.settleCurrency)} ${m.settleCurrency}` },
                { title: t('fee.from'), dataIndex: 'effectiveFrom' },
              ]}
            />
            <FeeSchedules merchant={m} canEdit={canOnboard} />
            <Typography.Title level={2} className="ops-section-title">
              {t('merchants.bank')}
            </Typography.Title>
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={m.bankAccounts}
              scroll={{ x: 600 }}
              columns={[
                { title: t('bank.beneficiaryBank'), dataIndex: 'beneficiaryBank' },
                { title: t('bank.swiftCode'), dataIndex: 'swiftCode' },
                { title: t('bank.accountNumber'), dataIndex: 'accountNumber' },
                { title: t('bank.currency'), dataIndex: 'currency' },
              ]}
            />
            <Typography.Title level={2} className="ops-section-title">
              {t('merchants.users')}
            </Typography.Title>
            <Table
              size="small"
              rowKey="username"
              pagination={false}
              dataSource={m.users}
              columns={[
                {
                  title: t('operators.username'),
                  dataIndex: 'username',
                  render: (u: string, r) => (
                    <>
                      {u} {r.main && <Tag>{t('merchants.main')}</Tag>}
                    </>
                  ),
                },
                { title: t('operators.email'), dataIndex: 'email' },
                { title: t('operators.status'), dataIndex: 'status', render: (s: string) => t(`status.${s}`) },
              ]}
            />
            {canOnboard && m.users.some((u) => u.main && u.status === 'INACTIVE') && (
              <Button
                style={{ marginTop: 8 }}
                onClick={() =>
                  void opsMerchantsApi.resendActivation(m.merId).then(
                    () => message.success(t('operators.resent')),
                    () => undefined,
                  )
                }
              >
                {t('operators.resend')}
              </Button>
            )}
          </>
        )}
      </Drawer>
      <Modal
        title={t('merchants.lock')}
        open={locking}
        onCancel={() => setLocking(false)}
        onOk={() => lockForm.submit()}
        okButtonProps={{ danger: true }}
        okText={t('merchants.lock')}
        cancelText={t('cancel')}
        confirmLoading={lock.isPending}
        destroyOnHidden
      >
        <Form form={lockForm} layout="vertical" onFinish={(v) => lock.mutate(v.reason)} requiredMark={false}>
          <Form.Item name="reason" label={t('merchants.lockReason')} extra={t('merchants.lockHint')} rules={[{ required: true, whitespace: true, min: 3, message: t('form.required') }]}>
            <Input.TextArea rows={3} maxLength={300} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
