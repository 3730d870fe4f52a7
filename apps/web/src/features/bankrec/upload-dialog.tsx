import { useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Select, Space, Typography, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BANK_CSV_DATE_FORMATS, type BankCsvMapping, type BankImportResult } from '@portal/contract';
import { MerchantSelect } from '../../components/merchant-select';
import { RequestError } from '../../lib/http';
import { useMerchant } from '../../lib/session';
import { useCsvMapping, useSaveCsvMapping, useUploadStatement } from './api/bankrec';

/** A file that is neither XML (camt.053) nor SWIFT tags (MT940): read as CSV with the mapping. */
async function csvHeaderOf(file: File): Promise<{ columns: string[]; delimiter: BankCsvMapping['delimiter'] } | null> {
  const head = (await file.slice(0, 64 * 1024).text()).replace(/^\uFEFF/, '');
  const start = head.trimStart();
  if (start.startsWith('<') || /^(\{1:|:20:|:940:)/m.test(start)) return null;
  const first = start.split(/\r?\n/)[0] ?? '';
  const delimiter = ([';', '\t', ','] as const).reduce((best, d) => (first.split(d).length > first.split(best).length ? d : best), ',' as BankCsvMapping['delimiter']);
  return {
    columns: first
      .split(delimiter)
      .map((c) => c.trim().replace(/^"|"$/g, ''))
      .filter(Boolean),
    delimiter,
  };
}

const OPTIONAL = ['currency', 'reference', 'counterparty', 'description'] as const;

/** Upload a statement: the file, the merchant, whether a balance difference is accepted; a CSV first asks for its column mapping. */
export function UploadDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (r: BankImportResult) => void }) {
  const { t } = useTranslation('bankrec');
  const me = useMerchant();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [merId, setMerId] = useState<string | undefined>();
  const [accept, setAccept] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [csv, setCsv] = useState<{ columns: string[]; delimiter: BankCsvMapping['delimiter'] } | null>(null);
  const upload = useUploadStatement();
  const saveMapping = useSaveCsvMapping();
  const target = merId ?? me.subMerIdAndNameList[0]?.mid;
  const saved = useCsvMapping(target, open && !!csv);
  const [form] = Form.useForm<BankCsvMapping>();

  const close = () => {
    setFiles([]);
    setError(null);
    setCsv(null);
    setAccept(false);
    onClose();
  };
  const send = async (file: File) => {
    setError(null);
    try {
      onDone(await upload.mutateAsync({ file, merId, acceptUnbalanced: accept }));
      close();
    } catch (e) {
      setError(e instanceof RequestError ? e.message : String(e));
    }
  };
  const start = async () => {
    const file = files[0]?.originFileObj;
    if (!file) {
      setError(t('upload.fileRequired'));
      return;
    }
    const header = await csvHeaderOf(file);
    if (header && !csv) {
      setCsv(header);
      form.setFieldsValue({ decimal: ',', dateFormat: 'YYYY-MM-DD', delimiter: header.delimiter, defaultCurrency: null, ...saved.data });
      return;
    }
    if (header) {
      try {
        const m = await form.validateFields();
        await saveMapping.mutateAsync({ ...m, merId: target! });
      } catch (e) {
        if (e instanceof RequestError) setError(e.message);
        return;
      }
    }
    await send(file);
  };
  const columns = (csv?.columns ?? []).map((c) => ({ value: c, label: c }));

  return (
    <Modal
      open={open}
      title={csv ? t('csv.title') : t('upload.title')}
      onCancel={close}
      okText={csv ? t('csv.saveAndUpload') : t('upload.run')}
      cancelText={t('cancel')}
      onOk={() => void start()}
      confirmLoading={upload.isPending || saveMapping.isPending}
      destroyOnHidden
      width={640}
    >
      {!csv && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary">{t('upload.hint')}</Typography.Paragraph>
          <Form layout="vertical">
            <Form.Item label={t('upload.merchant')} htmlFor="bankrec-upload-mer">
              <MerchantSelect id="bankrec-upload-mer" value={merId} onChange={setMerId} placeholder={t('upload.merchantDefault')} />
            </Form.Item>
            <Form.Item label={t('upload.file')}>
              <Upload
                accept=".xml,.sta,.mt940,.940,.txt,.csv"
                maxCount={1}
                fileList={files}
                beforeUpload={() => false}
                onChange={({ fileList }) => {
                  setFiles(fileList.slice(-1));
                  setError(null);
                }}
              >
                <Button icon={<UploadOutlined />}>{t('upload.choose')}</Button>
              </Upload>
            </Form.Item>
            <Checkbox checked={accept} onChange={(e) => setAccept(e.target.checked)}>
              {t('upload.acceptUnbalanced')}
            </Checkbox>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4 }}>
              {t('upload.acceptUnbalancedHint')}
            </Typography.Paragraph>
          </Form>
        </Space>
      )}
      {csv && (
        <Form form={form} layout="vertical" requiredMark>
          <Typography.Paragraph type="secondary">{t('csv.hint', { file: files[0]?.name ?? '' })}</Typography.Paragraph>
          <Space wrap style={{ width: '100%' }} align="start">
            <Form.Item name="date" label={t('csv.col.date')} rules={[{ required: true, message: t('csv.required') }]} style={{ minWidth: 180 }}>
              <Select options={columns} />
            </Form.Item>
            <Form.Item name="amount" label={t('csv.col.amount')} rules={[{ required: true, message: t('csv.required') }]} style={{ minWidth: 180 }}>
              <Select options={columns} />
            </Form.Item>
            {OPTIONAL.map((k) => (
              <Form.Item key={k} name={k} label={t(`csv.col.${k}`)} style={{ minWidth: 180 }}>
                <Select options={columns} allowClear />
              </Form.Item>
            ))}
            <Form.Item name="defaultCurrency" label={t('csv.defaultCurrency')} style={{ minWidth: 120 }}>
              <Input maxLength={3} placeholder="HKD" />
            </Form.Item>
            <Form.Item name="decimal" label={t('csv.decimal')} style={{ minWidth: 160 }}>
              <Select
                options={[
                  { value: ',', label: t('csv.decimalComma') },
                  { value: '.', label: t('csv.decimalDot') },
                ]}
              />
            </Form.Item>
            <Form.Item name="dateFormat" label={t('csv.dateFormat')} style={{ minWidth: 160 }}>
              <Select options={BANK_CSV_DATE_FORMATS.map((f) => ({ value: f, label: f }))} />
            </Form.Item>
            <Form.Item name="delimiter" label={t('csv.delimiter')} style={{ minWidth: 120 }}>
              <Select
                options={[
                  { value: ',', label: ',' },
                  { value: ';', label: ';' },
                  { value: '\t', label: t('csv.tab') },
                ]}
              />
            </Form.Item>
            <Form.Item name="account" label={t('csv.account')} rules={[{ required: true, message: t('csv.required') }]} style={{ minWidth: 240 }}>
              <Input maxLength={64} />
            </Form.Item>
          </Space>
        </Form>
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} />}
    </Modal>
  );
}
