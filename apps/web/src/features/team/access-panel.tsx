import { useState } from 'react';
import { Alert, Button, Form, InputNumber, Skeleton, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { INACTIVE_DAYS_MAX, INACTIVE_DAYS_MIN, TeamApi } from '@portal/contract';
import { RequestError } from '../../lib/http';
import { useUser } from '../../lib/session';
import { useApp } from '../../app/lazy-app';
import { saveAccessPolicy, useAccessPolicy, useReview } from './api/access';
import { areaKey } from '../../lib/api-query';

const REVIEW_PATH = '/merchant/team/review';

/** The quarter's access review is due: a banner with the way to it (administrators with user management). */
export function ReviewDueBanner({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('access');
  const me = useUser();
  const review = useReview(me.merId, canManage);
  if (!canManage || !review.data?.due) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      message={t('due', { quarter: review.data.quarter })}
      action={
        <Link to={REVIEW_PATH}>
          <Button size="small">{t('open')}</Button>
        </Link>
      }
    />
  );
}

/** The team page's "Access" tab: the inactivity limit (administrators set it) and the way to the review. */
export function AccessPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation(['access', 'team']);
  const { message } = useApp();
  const me = useUser();
  const qc = useQueryClient();
  const policy = useAccessPolicy(me.merId);
  const [saving, setSaving] = useState(false);

  const submit = async (v: { inactiveDays: number }) => {
    setSaving(true);
    try {
      await saveAccessPolicy({ merId: me.merId, inactiveDays: v.inactiveDays });
      message.success(t('policy.saved'));
      await qc.invalidateQueries({ queryKey: areaKey(TeamApi.accessPolicy) });
    } catch (e) {
      message.error(e instanceof RequestError ? e.message : t('failed'));
    } finally {
      setSaving(false);
    }
  };

  if (!policy.data) return <Skeleton active />;
  return (
    <div style={{ maxWidth: 640 }}>
      <ReviewDueBanner canManage={canManage} />
      <Typography.Paragraph type="secondary">{t('policy.intro')}</Typography.Paragraph>
      <Form layout="vertical" name="accessPolicy" onFinish={submit} disabled={!canManage} initialValues={{ inactiveDays: policy.data.inactiveDays }}>
        <Form.Item
          name="inactiveDays"
          label={t('policy.inactiveDays')}
          extra={t(`policy.source.${policy.data.source}`)}
          rules={[{ required: true, type: 'number', min: INACTIVE_DAYS_MIN, max: INACTIVE_DAYS_MAX, message: t('policy.rule', { min: INACTIVE_DAYS_MIN, max: INACTIVE_DAYS_MAX }) }]}
        >
          <InputNumber min={INACTIVE_DAYS_MIN} max={INACTIVE_DAYS_MAX} precision={0} style={{ width: 140 }} />
        </Form.Item>
        {canManage && (
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('team:form.save')}
          </Button>
        )}
      </Form>
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 24 }}>
        {t('reviewTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('reviewIntro')}</Typography.Paragraph>
      {canManage && (
        <Link to={REVIEW_PATH}>
          <Button>{t('open')}</Button>
        </Link>
      )}
    </div>
  );
}
