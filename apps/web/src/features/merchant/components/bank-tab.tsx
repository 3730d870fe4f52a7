import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Select, Table, Tag, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BANK_DOC_MAX_BYTES, CURRENCIES, Perm, SWIFT_RE, type BankRequest } from '@portal/contract';
import { Can } from '../../../components/can';
import { feedback } from '../../../lib/feedback';
import { useUser } from '../../../lib/session';
import { formatPlatformLabelled } from '../../../lib/time';
import { useBankChangeRequest, useMerchantBanks } from '../api/merchant';

const STATUS_COLOR: Record<BankRequest['status'], string> = {
  MERCHANT_APPROVAL: 'processing',
  MERCHANT_REJECTED: 'error',
  EXPIRED: 'default',
  PENDING: 'warning',
  APPROVED: 'success',
  REJECTED: 'error',
};

interface BankForm {
  accountId?: number;
  beneficiaryBank: string;
  swiftCode: string;
  bankAddress?: string;
  accountName: string;
  accountNumber: string;
  country: string;
  currency: string;
}

/** Bank accounts (numbers masked), the change requests, and — for the main user — the change request dialog. */
export function BankTab({ merId }: { merId: string }) {
  const { t } = useTranslation('merchant');
  const user = useUser();
  const banks = useMerchantBanks(merId, true);
  const submit = useBankChangeRequest(merId);
  const [open, setOpen] = useState(false);
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [form] = Form.useForm<BankForm>();
  const pending = banks.data?.requests.find((r) => r.status === 'PENDING' || r.status === 'MERCHANT_APPROVAL');
  const isMain = user.userAdmin;

  const onOk = async () => {
    let v: BankForm;
    try {
      v = await form.validateFields();
    } catch {
      return; // the fields show their errors
    }
    const file = files[0]?.originFileObj;
    if (!file) {
      feedback().message.error(t('bank.docRequired'));
      return;
    }
    const fd = new FormData();
    fd.set('merId', merId);
    for (const [k, val] of Object.entries(v)) if (val !== undefined && val !== null && val !== '') fd.set(k, String(val));
    fd.set('document', file, file.name);
    let res: BankRequest;
    try {
      res = await submit.mutateAsync(fd);
    } catch {
      return; // the request client has shown the server's message; the dialog stays open
    }
    // Under the merchant's four eyes (decision 049) it first waits for a second user of the team.
    feedback().message.success(t(res.status === 'MERCHANT_APPROVAL' ? 'bank.awaitsTeam' : 'bank.submitted'));
    setOpen(false);
    form.resetFields();
    setFiles([]);
  };

  return (
    <>
      {pending && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t(pending.status === 'MERCHANT_APPROVAL' ? 'bank.pendingTeamNote' : 'bank.pendingNote', {
            bank: pending.beneficiaryBank,
            account: pending.accountNumber,
            at: formatPlatformLabelled(pending.requestedAt),
          })}
        />
      )}
      {isMain && (
        <Can permission={Perm.merchantBankChange}>
          <Button type="primary" style={{ marginBottom: 12 }} disabled={!!pending} onClick={() => setOpen(true)}>
            {t('bank.request')}
          </Button>
        </Can>
      )}
      <Table
        rowKey="id"
        size="small"
        loading={banks.isFetching}
        pagination={false}
        scroll={{ x: 1100 }}
        dataSource={banks.data?.content ?? []}
        columns={[
          { key: 'bank', title: t('bank.beneficiaryBank'), dataIndex: 'beneficiaryBank', width: 240 },
          { key: 'swift', title: t('bank.swiftCode'), dataIndex: 'swiftCode', width: 130 },
          { key: 'address', title: t('bank.address'), width: 240, render: (_, r) => r.bankAddress ?? '—' },
          { key: 'name', title: t('bank.accountName'), dataIndex: 'accountName', width: 220 },
          { key: 'number', title: t('bank.accountNumber'), dataIndex: 'accountNumber', width: 130 },
          { key: 'country', title: t('field.country'), dataIndex: 'country', width: 80 },
          {
            key: 'currency',
            title: t('bank.currency'),
            width: 120,
            render: (_, r) => (
              <>
                {r.currency}
                {r.isDefault && <Tag style={{ marginLeft: 6 }}>{t('bank.default')}</Tag>}
              </>
            ),
          },
        ]}
      />
      {!!banks.data?.requests.length && (
        <>
          <h4 style={{ marginTop: 20 }}>{t('bank.requests')}</h4>
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: 900 }}
            dataSource={banks.data.requests}
            columns={[
              { key: 'id', title: '#', dataIndex: 'id', width: 60 },
              { key: 'status', title: t('col.status'), width: 120, render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(`bank.status.${r.status}`)}</Tag> },
              { key: 'bank', title: t('bank.beneficiaryBank'), dataIndex: 'beneficiaryBank', width: 220 },
              { key: 'number', title: t('bank.accountNumber'), dataIndex: 'accountNumber', width: 120 },
              { key: 'doc', title: t('bank.document'), dataIndex: 'documentName', width: 160 },
              { key: 'by', title: t('bank.requestedBy'), width: 230, render: (_, r) => `${r.requestedBy} · ${formatPlatformLabelled(r.requestedAt)}` },
              { key: 'decided', title: t('bank.decidedAt'), width: 200, render: (_, r) => (r.decidedAt ? formatPlatformLabelled(r.decidedAt) : '—') },
            ]}
          />
        </>
      )}
      <Modal open={open} title={t('bank.request')} okText={t('bank.submit')} cancelText={t('cancel')} onOk={onOk} confirmLoading={submit.isPending} onCancel={() => setOpen(false)} destroyOnHidden>
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('bank.explain')} />
        <Form form={form} layout="vertical" initialValues={{ currency: banks.data?.content[0]?.currency }}>
          <Form.Item name="accountId" label={t('bank.replaces')}>
            <Select allowClear placeholder={t('bank.newAccount')} options={(banks.data?.content ?? []).map((b) => ({ value: b.id, label: `${b.beneficiaryBank} ${b.accountNumber} ${b.currency}` }))} />
          </Form.Item>
          <Form.Item name="beneficiaryBank" label={t('bank.beneficiaryBank')} rules={[{ required: true, min: 2, max: 120, message: t('required') }]}>
            <Input maxLength={120} />
          </Form.Item>
          <Form.Item name="swiftCode" label={t('bank.swiftCode')} normalize={(v: string) => v?.toUpperCase()} rules={[{ required: true, pattern: SWIFT_RE, message: t('bank.swiftInvalid') }]}>
            <Input maxLength={11} />
          </Form.Item>
          <Form.Item name="bankAddress" label={t('bank.address')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="accountName" label={t('bank.accountName')} rules={[{ required: true, min: 2, max: 120, message: t('required') }]}>
            <Input maxLength={120} />
          </Form.Item>
          <Form.Item
            name="accountNumber"
            label={t('bank.accountNumber')}
            normalize={(v: string) => v?.replace(/\s/g, '').toUpperCase()}
            rules={[{ required: true, pattern: /^[A-Z0-9]{6,34}$/, message: t('bank.accountInvalid') }]}
          >
            <Input maxLength={40} autoComplete="off" />
          </Form.Item>
          <Form.Item name="country" label={t('field.country')} normalize={(v: string) => v?.toUpperCase()} rules={[{ required: true, pattern: /^[A-Z]{2}$/, message: t('bank.countryInvalid') }]}>
            <Input maxLength={2} style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="currency" label={t('bank.currency')} rules={[{ required: true, message: t('required') }]}>
            <Select showSearch style={{ width: 140 }} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
          </Form.Item>
          <Form.Item label={t('bank.document')} required extra={t('bank.docHint')}>
            <Upload
              accept=".pdf,.png,.jpg,.jpeg"
              maxCount={1}
              fileList={files}
              beforeUpload={(f) => {
                if (f.size > BANK_DOC_MAX_BYTES) {
                  feedback().message.error(t('bank.docTooLarge'));
                  return Upload.LIST_IGNORE;
                }
                return false;
              }}
              onChange={({ fileList }) => setFiles(fileList.slice(-1))}
            >
              <Button icon={<UploadOutlined />}>{t('bank.chooseDoc')}</Button>
            </Upload>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
