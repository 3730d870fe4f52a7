import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { NoticeRow } from '@portal/contract';

export function NoticeLevelTag({ level }: { level: NoticeRow['level'] }) {
  const { t } = useTranslation('notice');
  return level === 'important' ? <Tag color="error">{t('level.important')}</Tag> : <Tag color="processing">{t('level.info')}</Tag>;
}
