import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Flex, Form, Modal, Table, Tabs, Typography, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LIMITS, TxnApi, type BlendResult } from '@portal/contract';
import { PageContainer } from '../../components/page-container';
import { DateRangeFilter } from '../../components/date-range-filter';
import { http } from '../../lib/http';
import { feedback } from '../../lib/feedback';
import { FeedDifferences } from './feed-differences';

type Line = BlendResult['missing'][number];

/** POST /txn/manualBlend (multipart: file, beginDate, endDate). */
const postBlend = (file: File, range: [dayjs.Dayjs, dayjs.Dayjs] | null) => {
  const fd = new FormData();
  fd.set('file', file, file.name);
  if (range) {
    fd.set('beginDate', range[0].format('YYYY-MM-DD'));
    fd.set('endDate', range[1].format('YYYY-MM-DD'));
  }
  return http.call(TxnApi.manualBlend, { multipart: fd });
};

/**
 * /txn/manualBlend — manual reconciliation: a bank or channel statement (order number, amount,
 * currency[, merchant id]) is compared with the settled transactions. Who may use it (the
 * txn:manualBlend permission, main users), what it changes (nothing: it is a comparison; the run
 * is written to the audit log), a confirmation before it runs.
 */
export function ManualBlendPage() {
  const { t } = useTranslation('settleDetail');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [range, setRange] = useState<[dayjs.Dayjs, dayjs.Dayjs] | null>(null);
  const [result, setResult] = useState<BlendResult | null>(null);
  const run = useMutation({ mutationFn: ({ file, r }: { file: File; r: typeof range }) => postBlend(file, r) });

  const start = () => {
    const file = files[0]?.originFileObj;
    if (!file) {
      feedback().message.error(t('blend.fileRequired'));
      return;
    }
    Modal.confirm({
      title: t('blend.confirmTitle'),
      content: t('blend.confirmText', { file: file.name, range: range ? `${range[0].format('YYYY-MM-DD')} ~ ${range[1].format('YYYY-MM-DD')}` : t('blend.noRange') }),
      okText: t('blend.run'),
      cancelText: t('blend.cancel'),
      onOk: async () => setResult(await run.mutateAsync({ file, r: range })),
    });
  };

  const cols = [
    { key: 'row', title: t('blend.row'), width: 70, render: (_: unknown, r: Line) => r.row || '—' },
    { key: 'orderNo', title: t('blend.orderNo'), dataIndex: 'orderNo', width: 200 },
    { key: 'currency', title: t('col.currency'), dataIndex: 'currency', width: 90 },
    { key: 'statement', title: t('blend.statementAmount'), width: 150, align: 'right' as const, render: (_: unknown, r: Line) => r.statementAmount || '—' },
    { key: 'portal', title: t('blend.portalAmount'), width: 150, align: 'right' as const, render: (_: unknown, r: Line) => r.portalAmount ?? '—' },
    { key: 'reason', title: t('blend.reason'), dataIndex: 'reason', width: 220 },
  ];
  const lines = (list: Line[]) => (
    <Table rowKey={(r) => `${r.row}|${r.orderNo}`} size="small" columns={cols} dataSource={list} scroll={{ x: 880 }} pagination={{ pageSize: 10, showSizeChanger: false }} />
  );

  return (
    <PageContainer card={false}>
      <Card style={{ marginBottom: 16 }}>
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('blend.who')} description={t('blend.what')} />
        <Typography.Paragraph type="secondary">{t('blend.format')}</Typography.Paragraph>
        <Form layout="inline" className="stack-narrow" style={{ rowGap: 8 }}>
          <Form.Item label={t('blend.range')}>
            <DateRangeFilter value={range} onChange={(v) => setRange(v as [dayjs.Dayjs, dayjs.Dayjs] | null)} aria-label={t('blend.range')} />
          </Form.Item>
          <Form.Item label={t('blend.file')}>
            <Upload
              accept=".xlsx,.csv"
              maxCount={1}
              fileList={files}
              beforeUpload={(f) => {
                if (f.size > LIMITS.attachmentMaxBytes) {
                  feedback().message.error(t('blend.tooLarge'));
                  return Upload.LIST_IGNORE;
                }
                return false;
              }}
              onChange={({ fileList }) => setFiles(fileList.slice(-1))}
            >
              <Button icon={<UploadOutlined />}>{t('blend.choose')}</Button>
            </Upload>
          </Form.Item>
          <Button type="primary" onClick={start} loading={run.isPending}>
            {t('blend.run')}
          </Button>
        </Form>
      </Card>
      {result && (
        <Card style={{ marginBottom: 16 }}>
          <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('blend.total')}>{result.total}</Descriptions.Item>
            <Descriptions.Item label={t('blend.matched')}>
              <span data-testid="blend-matched">{result.matched}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('blend.errors')}>{result.errors.length}</Descriptions.Item>
          </Descriptions>
          {!!result.errors.length && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              title={t('blend.errorsTitle')}
              description={
                <Flex vertical>
                  {result.errors.slice(0, 20).map((e) => (
                    <span key={`${e.row}|${e.field}`}>{t('blend.errorLine', { row: e.row, reason: e.reason })}</span>
                  ))}
                </Flex>
              }
            />
          )}
          <Tabs
            items={[
              { key: 'differing', label: `${t('blend.differing')} (${result.differing.length})`, children: lines(result.differing) },
              { key: 'missing', label: `${t('blend.missing')} (${result.missing.length})`, children: lines(result.missing) },
              { key: 'notInStatement', label: `${t('blend.notInStatement')} (${result.notInStatement.length})`, children: lines(result.notInStatement) },
            ]}
          />
        </Card>
      )}
      <FeedDifferences />
    </PageContainer>
  );
}
