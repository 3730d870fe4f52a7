import { useState } from 'react';
import { Alert, Button, Card, Flex, Input, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../lib/http';
import { useApp } from '../../app/lazy-app';
import { saveSignInIp, useSignInIp } from './api';
import { apiKey } from '../../lib/api-query';
import { ScimApi } from '@portal/contract';

/**
 * The sign-in IP allow-list of the merchant group (issue 51): one address or CIDR range per line,
 * IPv4 or IPv6; empty lets sign-ins in from anywhere. The server refuses a list that leaves out the
 * administrator's own address (the lock-out guard), whose reading it shows here.
 */
export function SignInIpPanel() {
  const { t } = useTranslation('scim');
  const { message } = useApp();
  const qc = useQueryClient();
  const q = useSignInIp();
  // null: not edited yet — the saved list is shown.
  const [edited, setText] = useState<string | null>(null);
  const text = edited ?? q.data?.ranges.join('\n') ?? '';
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    setError(null);
    try {
      await saveSignInIp(text);
      message.success(t('ip.saved'));
      await qc.invalidateQueries({ queryKey: apiKey(ScimApi.signInIp) });
    } catch (e) {
      setError(e instanceof RequestError ? e.message : String(e));
    }
  };
  const addMine = () => q.data && setText(text.trim() ? `${text.trim()}\n${q.data.yourIp}` : q.data.yourIp);

  return (
    <Card title={t('ip.title')} size="small">
      <Typography.Paragraph>{t('ip.help')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('ip.yourIp')}{' '}
        <Typography.Text code data-testid="your-ip">
          {q.data?.yourIp ?? '…'}
        </Typography.Text>{' '}
        <Button size="small" onClick={addMine} disabled={!q.data}>
          {t('ip.addMine')}
        </Button>
      </Typography.Paragraph>
      <label htmlFor="signin-ip-ranges">
        <Typography.Text strong>{t('ip.ranges')}</Typography.Text>
      </label>
      <Input.TextArea
        id="signin-ip-ranges"
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={'203.0.113.0/24\n2001:db8::/32'}
        style={{ fontFamily: 'monospace', marginTop: 4 }}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} data-testid="ip-error" />}
      <Flex gap={8} align="center" wrap style={{ marginTop: 12 }}>
        <Button type="primary" onClick={save}>
          {t('ip.save')}
        </Button>
        {q.data?.updatedAt && <Typography.Text type="secondary">{t('ip.updated', { at: q.data.updatedAt, by: q.data.updatedBy ?? '' })}</Typography.Text>}
      </Flex>
    </Card>
  );
}
