import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Why a near-match failed: the server's reasons in the user's language, or that nothing came near. */
export function WhyList({ why, nearest }: { why: { code: string; text: string }[]; nearest: string | number | null }) {
  const { t } = useTranslation('bankrec');
  if (nearest === null) return <Typography.Text type="secondary">{t('why.none')}</Typography.Text>;
  return (
    <Space direction="vertical" size={2}>
      {why.map((w) => (
        <Tag key={w.code} color="warning" style={{ whiteSpace: 'normal', marginInlineEnd: 0 }}>
          {w.text}
        </Tag>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
        {t('why.nearest', { ref: String(nearest) })}
      </Typography.Text>
    </Space>
  );
}
