import { Tag, Tooltip } from 'antd';
import { CheckCircleOutlined, CloseCircleOutlined, SyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { resultStateOf, type SettleState } from '@portal/contract';

/** The order result (spec §4): success, processing or failed, with the gateway's message as tooltip. */
export function StatusTag({ gwResponse, respMsg }: { gwResponse: string | null; respMsg?: string | null }) {
  const { t } = useTranslation('txn');
  const s = resultStateOf(gwResponse);
  const tag =
    s === 'S' ? (
      <Tag color="success" icon={<CheckCircleOutlined />}>
        {t('result.S')}
      </Tag>
    ) : s === 'P' ? (
      <Tag color="processing" icon={<SyncOutlined />}>
        {t('result.P')}
      </Tag>
    ) : (
      <Tag color="error" icon={<CloseCircleOutlined />}>
        {t('result.F')}
      </Tag>
    );
  return <Tooltip title={`${gwResponse ?? '—'}${respMsg ? ` · ${respMsg}` : ''}`}>{tag}</Tooltip>;
}

/** The settle flag as spec §4 names it (blank when it has none). */
export function SettleFlag({ state }: { state: SettleState }) {
  const { t } = useTranslation('txn');
  if (!state) return null;
  const color = state === 'T' ? 'success' : state === 'W' ? 'processing' : 'default';
  return <Tag color={color}>{t(`settle.${state}`)}</Tag>;
}
