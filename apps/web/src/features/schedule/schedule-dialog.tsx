import { Descriptions, Form, InputNumber, Modal, Radio, Select, TimePicker, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Schedule, ScheduleKind } from '@portal/contract';
import { useUser } from '../../lib/session';
import type { RequestError } from '../../lib/http';
import { useRecipients, useSaveSchedule } from './api/schedules';
import { allTimeZones } from '../../lib/time';
import { filterSummary, kindKey, newScheduleValues, toScheduleForm, valuesOf, type ScheduleFormValues } from './schedule-form';
import { useApp } from '../../app/lazy-app';

/** What the dialog schedules: a new one from a screen (kind and its current filters) or an existing one. */
export type ScheduleTarget = { kind: ScheduleKind; params: Record<string, unknown>; schedule?: Schedule };

/** Create or edit a schedule: repeat, time, day, zone, format, recipients (the merchant's users). */
export function ScheduleDialog({ target, onClose }: { target: ScheduleTarget | null; onClose: () => void }) {
  const { t } = useTranslation('schedule');
  const { message } = useApp();
  const user = useUser();
  const [form] = Form.useForm<ScheduleFormValues>();
  const save = useSaveSchedule();
  const recipients = useRecipients(!!target);
  const frequency = Form.useWatch('frequency', form);
  const initial = target?.schedule ? valuesOf(target.schedule) : newScheduleValues(user.email);
  const filters = filterSummary(target?.params ?? {});

  const submit = async () => {
    if (!target) return;
    const v = await form.validateFields().catch(() => null); // the refused field shows its message
    if (!v) return;
    try {
      await save.mutateAsync(toScheduleForm(target.kind, target.params, v, target.schedule?.id));
      message.success(t('msg.saved'));
      onClose();
    } catch (e) {
      message.error((e as RequestError).message);
    }
  };

  return (
    <Modal
      open={!!target}
      title={t(target?.schedule ? 'dialog.editTitle' : 'dialog.createTitle')}
      okText={t('dialog.save')}
      cancelText={t('dialog.cancel')}
      confirmLoading={save.isPending}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      {target && (
        <Form<ScheduleFormValues> form={form} layout="vertical" initialValues={initial} preserve={false} requiredMark={false}>
          <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('field.report')}>{t(kindKey(target.kind))}</Descriptions.Item>
            <Descriptions.Item label={t('dialog.filters')}>
              <Typography.Text style={{ wordBreak: 'break-word' }} data-testid="schedule-filters">
                {filters.length ? filters.join(' · ') : t('dialog.noFilters')}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Form.Item name="frequency" label={t('field.frequency')}>
            <Radio.Group optionType="button" options={(['daily', 'weekly', 'monthly'] as const).map((f) => ({ value: f, label: t(`frequency.${f}`) }))} />
          </Form.Item>
          {frequency === 'weekly' && (
            <Form.Item name="weekday" label={t('field.weekday')} rules={[{ required: true, message: t('required.weekday') }]}>
              <Select aria-label={t('field.weekday')} options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`weekday.${d}`) }))} />
            </Form.Item>
          )}
          {frequency === 'monthly' && (
            <Form.Item name="monthDay" label={t('field.monthDay')} extra={t('dialog.monthDayHint')} rules={[{ required: true, message: t('required.monthDay') }]}>
              <InputNumber min={1} max={31} precision={0} aria-label={t('field.monthDay')} style={{ width: 120 }} />
            </Form.Item>
          )}
          <Form.Item name="time" label={t('field.time')} rules={[{ required: true, message: t('required.time') }]}>
            <TimePicker format="HH:mm" minuteStep={5} needConfirm={false} allowClear={false} aria-label={t('field.time')} />
          </Form.Item>
          <Form.Item name="timeZone" label={t('field.timeZone')} rules={[{ required: true, message: t('required.timeZone') }]}>
            <Select showSearch aria-label={t('field.timeZone')} options={allTimeZones(initial.timeZone).map((z) => ({ value: z, label: z }))} />
          </Form.Item>
          <Form.Item name="format" label={t('field.format')}>
            <Radio.Group
              options={[
                { value: 'xlsx', label: 'XLSX' },
                { value: 'csv', label: 'CSV' },
              ]}
            />
          </Form.Item>
          <Form.Item name="recipients" label={t('field.recipients')} rules={[{ required: true, type: 'array', min: 1, message: t('required.recipients') }]}>
            <Select
              mode="multiple"
              aria-label={t('field.recipients')}
              loading={recipients.isFetching}
              options={(recipients.data ?? []).map((u) => ({ value: u.email, label: `${u.username} <${u.email}>` }))}
              optionFilterProp="label"
            />
          </Form.Item>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            {t('dialog.rollingHint')}
          </Typography.Paragraph>
        </Form>
      )}
    </Modal>
  );
}
