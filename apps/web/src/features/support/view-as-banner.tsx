import { useState } from 'react';
import { Button } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ViewAsInfo } from '@portal/contract';
import { cookieTokens } from '../../lib/tokens';
import { formatInstant } from '../../lib/time';
import './view-as-banner.css';

/**
 * The banner of a support "view as" (decision 046), on every page of the merchant portal: who is
 * viewing which merchant, read-only, until when, and End. End is the operator's own call to the
 * back office (its own token, in its own cookies), then this tab leaves the merchant portal.
 */
export function ViewAsBanner({ viewAs }: { viewAs: ViewAsInfo }) {
  const { t } = useTranslation('layout');
  const [ending, setEnding] = useState(false);
  const end = async () => {
    setEnding(true);
    try {
      const { viewAsApi } = await import('../ops/api/view-as-api');
      await viewAsApi.end(viewAs.id);
    } catch {
      /* already ended, or the operator's session is gone: the view ends on the server either way */
    }
    cookieTokens.clear();
    location.assign('/ops/merchants');
  };
  const time = formatInstant(viewAs.expiresAt, 'HH:mm');
  return (
    <section className="view-as-banner" aria-label={t('viewAs.region')}>
      <EyeOutlined aria-hidden className="view-as-banner__icon" />
      <p className="view-as-banner__text">
        {t('viewAs.text', { merchant: viewAs.merName, operator: viewAs.operator })}
        {' — '}
        <strong>{t('viewAs.readOnly')}</strong>
        {' — '}
        {t('viewAs.endsAt', { time })}
      </p>
      <Button size="small" onClick={() => void end()} loading={ending}>
        {t('viewAs.end')}
      </Button>
    </section>
  );
}
