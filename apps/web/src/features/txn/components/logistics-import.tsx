import { useState } from 'react';
import { Alert, Button, Dropdown, Modal, Table, Upload } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIMITS, type RowError } from '@portal/contract';
import { downloadLogisticsTemplate, useUploadLogistics } from '../api/logistics';
import { useApp } from '../../../app/lazy-app';

const FIELD_LABEL: Record<string, string> = {
  orderNo: 'col.orderNo',
  merId: 'filter.merId',
  shipmentNo: 'logistics.shipmentNo',
  company: 'logistics.company',
  shipDate: 'logistics.shipDate',
  status: 'logistics.status',
};

/**
 * Template download and import of XLSX/CSV logistics info: every bad row is listed with its row
 * number and reason, and nothing is written when any row is bad.
 */
export function LogisticsImport() {
  const { t } = useTranslation('txn');
  const { message } = useApp();
  const upload = useUploadLogistics();
  const [errors, setErrors] = useState<RowError[] | null>(null);
  const [summary, setSummary] = useState('');

  const send = async (file: File) => {
    if (file.size > LIMITS.attachmentMaxBytes) {
      message.error(t('logistics.tooLarge'));
      return;
    }
    try {
      const env = await upload.mutateAsync(file);
      if (env.data.errors.length) {
        setSummary(env.msg);
        setErrors(env.data.errors);
      } else message.success(t('logistics.imported', { count: env.data.imported }));
    } catch {
      // shown by the request client
    }
  };

  return (
    <>
      <Dropdown
        menu={{
          items: [
            { key: 'xlsx', label: 'XLSX', onClick: () => void downloadLogisticsTemplate('xlsx') },
            { key: 'csv', label: 'CSV', onClick: () => void downloadLogisticsTemplate('csv') },
          ],
        }}
      >
        <Button icon={<DownloadOutlined />}>{t('logistics.template')}</Button>
      </Dropdown>
      <Upload
        accept=".xlsx,.csv"
        showUploadList={false}
        beforeUpload={(file) => {
          void send(file);
          return false;
        }}
      >
        <Button type="primary" icon={<UploadOutlined />} loading={upload.isPending}>
          {t('logistics.import')}
        </Button>
      </Upload>
      <Modal open={!!errors} title={t('logistics.errorsTitle')} onCancel={() => setErrors(null)} footer={<Button onClick={() => setErrors(null)}>{t('common:close')}</Button>} width={720}>
        <Alert type="error" showIcon title={summary} style={{ marginBottom: 12 }} />
        <Table<RowError>
          rowKey={(e) => `${e.row}:${e.field}:${e.reason}`}
          size="small"
          pagination={false}
          scroll={{ y: 360 }}
          dataSource={errors ?? []}
          columns={[
            { key: 'row', title: t('logistics.row'), dataIndex: 'row', width: 80 },
            { key: 'field', title: t('logistics.field'), width: 150, render: (_, e) => (FIELD_LABEL[e.field] ? t(FIELD_LABEL[e.field]) : e.field) },
            { key: 'reason', title: t('logistics.reason'), dataIndex: 'reason' },
          ]}
        />
      </Modal>
    </>
  );
}
