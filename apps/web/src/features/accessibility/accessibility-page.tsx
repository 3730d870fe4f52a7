import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PublicFrame } from '../../components/public-frame';
import { formatDate } from './reviewed';

/** /accessibility (public, linked from every footer): the accessibility statement (docs/accessibility.md). */
export default function AccessibilityPage() {
  const { t, i18n } = useTranslation('accessibility');
  const sections = ['target', 'check', 'known', 'contact'] as const;
  return (
    <PublicFrame>
      <Card className="public-card accessibility-statement">
        <Typography.Title level={1}>{t('title')}</Typography.Title>
        <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
        {sections.map((s) => (
          <section key={s}>
            <Typography.Title level={2}>{t(`${s}Title`)}</Typography.Title>
            <Typography.Paragraph>{t(s)}</Typography.Paragraph>
          </section>
        ))}
        <Typography.Paragraph type="secondary">{t('updated', { date: formatDate(i18n.language) })}</Typography.Paragraph>
      </Card>
    </PublicFrame>
  );
}
