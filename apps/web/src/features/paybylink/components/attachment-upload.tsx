import { useState } from 'react';
import { Button, Typography, Upload, type UploadFile } from 'antd';
import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PBL_ATTACHMENT_ACCEPT, PBL_ATTACHMENT_MAX_BYTES, attachmentTypeOfName } from '@portal/contract';
import { uploadFile } from '../api/files';
import { useApp } from '../../../app/lazy-app';

export type AttachmentValue = { attachment: string; fileName: string } | null | undefined;

/**
 * The bill file (spec §5): at most 5 MiB and xlsx/xls/csv/pdf/png/jpg, checked before sending
 * (too large → 'cannot exceed 5M' and the selection is cleared); the server checks the content.
 */
export function AttachmentUpload({ value, onChange, id }: { value?: AttachmentValue; onChange?: (v: AttachmentValue) => void; id?: string }) {
  const { t } = useTranslation('payByLink');
  const { message } = useApp();
  const [uploading, setUploading] = useState<UploadFile | null>(null);
  // One uid from 'uploading' to 'done', so the list changes the item instead of animating a swap.
  const [uid, setUid] = useState<string | null>(null);
  const fileList: UploadFile[] = uploading ? [uploading] : value ? [{ uid: uid ?? value.attachment, name: value.fileName, status: 'done' }] : [];

  return (
    <div id={id}>
      <Upload
        accept={PBL_ATTACHMENT_ACCEPT}
        maxCount={1}
        fileList={fileList}
        iconRender={() => <PaperClipOutlined />}
        beforeUpload={(file) => {
          if (file.size > PBL_ATTACHMENT_MAX_BYTES) {
            message.error(t('fileTooLarge'));
            onChange?.(null);
            return Upload.LIST_IGNORE;
          }
          if (!attachmentTypeOfName(file.name)) {
            message.error(t('fileType'));
            onChange?.(null);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={async ({ file, onSuccess, onError }) => {
          const f = file as File & { uid: string };
          setUid(f.uid);
          setUploading({ uid: f.uid, name: f.name, status: 'uploading', percent: 50 });
          try {
            const r = await uploadFile(f);
            onChange?.({ attachment: r.attachment, fileName: r.fileName });
            onSuccess?.(r);
          } catch (e) {
            message.error((e as Error)?.message || t('uploadError'));
            onChange?.(null);
            onError?.(e as Error);
          } finally {
            setUploading(null);
          }
        }}
        onRemove={() => {
          onChange?.(null);
          return true;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('form.upload')}</Button>
      </Upload>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('form.uploadHint')}
      </Typography.Text>
    </div>
  );
}
