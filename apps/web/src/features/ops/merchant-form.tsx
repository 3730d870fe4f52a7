import { useTranslation } from 'react-i18next';
import { Button, Col, Divider, Form, Input, InputNumber, Row, Select, Space } from 'antd';
import { CURRENCY_EXPONENT, toDecimal, toMinor, type OpsMerchantFields } from '@portal/contract';
import type { OpsFee, OpsMerchantDetail } from './api/ops-http';

const CHANNELS = ['UP', 'APP', 'AP', 'APMP', 'WX', 'CARD', 'PPRO_IDEAL', 'PPRO_PAYPAY'];
const CURRENCIES = Object.keys(CURRENCY_EXPONENT).sort();
const PERIODS = ['D', ...[1, 2, 3, 4, 5, 6, 7].map((d) => `W${d}`), ...Array.from({ length: 28 }, (_, i) => `M${i + 1}`)];

/** A fee line as the form shows it: MDR and reserve in %, money in the settlement currency's units. */
export interface FeeForm {
  busLine: string;
  mdr: number;
  fixedFee: string;
  cycleDays: number;
  reserve: number;
  reserveHoldDays: number;
  tranThreshold: string;
  tranFee: string;
  transferPeriod: string;
  disputeFee: string;
}
export interface MerchantFormValues {
  attribute: 'GROUP' | 'SUB' | 'INDEPENDENT';
  parentId?: string;
  name: string;
  corporationName: string;
  webStoreName?: string;
  companyAddress?: string;
  country: string;
  city?: string;
  postcode?: string;
  mcc: string;
  legalRegNo?: string;
  merchantUrl?: string;
  principalName?: string;
  principalEmail?: string;
  principalTel?: string;
  defaultCurrency: string;
  settleCurrency: string;
  channels: string[];
  currencies: string[];
  fees: FeeForm[];
  bankAccount: { beneficiaryBank: string; swiftCode: string; bankAddress?: string; accountName: string; accountNumber: string; country: string; currency: string };
  mainUser?: { username: string; email: string };
}

const FIELDS = [
  'name',
  'corporationName',
  'webStoreName',
  'companyAddress',
  'country',
  'city',
  'postcode',
  'mcc',
  'legalRegNo',
  'merchantUrl',
  'principalName',
  'principalEmail',
  'principalTel',
  'defaultCurrency',
  'settleCurrency',
  'channels',
  'currencies',
] as const;

/** The editable fields of the form, as the API takes them. */
/**
 * The form's fields as the route's body, '' left out. Typed as the body the route parses
 * (OpsMerchantFields, decision 074): the form's rules require what the body requires, and the
 * server's schema is the check of the values (a record built by field name cannot say so itself).
 */
export function fieldsOf(v: MerchantFormValues): OpsMerchantFields {
  return Object.fromEntries(FIELDS.map((f) => [f, v[f] === '' ? undefined : v[f]])) as unknown as OpsMerchantFields;
}

export function feeToApi(f: FeeForm, currency: string): OpsFee {
  return {
    busLine: f.busLine,
    mdrBp: Math.round(f.mdr * 100),
    fixedFee: toMinor(f.fixedFee || '0', currency),
    cycleDays: f.cycleDays,
    reserveBp: Math.round(f.reserve * 100),
    reserveHoldDays: f.reserveHoldDays,
    tranThreshold: toMinor(f.tranThreshold || '0', currency),
    tranFee: toMinor(f.tranFee || '0', currency),
    transferPeriod: f.transferPeriod,
    disputeFee: toMinor(f.disputeFee || '0', currency),
  };
}

export function valuesOf(m: OpsMerchantDetail): Partial<MerchantFormValues> {
  return Object.fromEntries(FIELDS.map((f) => [f, m[f] ?? undefined])) as Partial<MerchantFormValues>;
}

export const feeFromApi = (f: OpsFee, currency: string) => ({
  ...f,
  mdr: f.mdrBp / 100,
  reserve: f.reserveBp / 100,
  fixedFee: toDecimal(f.fixedFee, currency),
  tranThreshold: toDecimal(f.tranThreshold, currency),
  tranFee: toDecimal(f.tranFee, currency),
  disputeFee: toDecimal(f.disputeFee ?? 0, currency),
});

const money = /^\d{1,12}(\.\d{1,3})?$/;

/** The merchant form: new merchants (kind, group, fees, bank account, main user) or editing one's fields. */
export function MerchantFormFields({ mode, groups }: { mode: 'create' | 'edit'; groups: { value: string; label: string }[] }) {
  const { t } = useTranslation('ops');
  const attribute = Form.useWatch('attribute');
  const req = { required: true, whitespace: true, message: t('form.required') };
  const opts = (xs: string[]) => xs.map((x) => ({ value: x, label: x }));
  return (
    <>
      {mode === 'create' && (
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="attribute" label={t('merchants.attribute')} rules={[req]}>
              <Select options={(['GROUP', 'SUB', 'INDEPENDENT'] as const).map((a) => ({ value: a, label: t(`attribute.${a}`) }))} />
            </Form.Item>
          </Col>
          {attribute === 'SUB' && (
            <Col xs={24} md={12}>
              <Form.Item name="parentId" label={t('merchants.group')} rules={[req]}>
                <Select showSearch optionFilterProp="label" options={groups} />
              </Form.Item>
            </Col>
          )}
        </Row>
      )}
      <Row gutter={16}>
        {(['name', 'corporationName', 'webStoreName', 'companyAddress', 'city', 'postcode', 'legalRegNo', 'merchantUrl', 'principalName', 'principalEmail', 'principalTel'] as const).map((f) => (
          <Col xs={24} md={12} key={f}>
            <Form.Item name={f} label={t(`field.${f}`)} rules={f === 'name' || f === 'corporationName' ? [req] : []}>
              <Input />
            </Form.Item>
          </Col>
        ))}
        <Col xs={12} md={6}>
          <Form.Item name="country" label={t('field.country')} rules={[req, { pattern: /^[A-Za-z]{2}$/, message: t('form.country') }]}>
            <Input maxLength={2} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="mcc" label={t('field.mcc')} rules={[req, { pattern: /^\d{4}$/, message: t('form.mcc') }]}>
            <Input maxLength={4} inputMode="numeric" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="defaultCurrency" label={t('field.defaultCurrency')} rules={[req]}>
            <Select showSearch options={opts(CURRENCIES)} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="settleCurrency" label={t('field.settleCurrency')} rules={[req]}>
            <Select showSearch options={opts(CURRENCIES)} disabled={mode === 'edit'} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="channels" label={t('field.channels')} rules={[{ required: true, message: t('form.required') }]}>
            <Select mode="multiple" options={opts(CHANNELS)} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="currencies" label={t('field.currencies')} rules={[{ required: true, message: t('form.required') }]}>
            <Select mode="multiple" options={opts(CURRENCIES)} />
          </Form.Item>
        </Col>
      </Row>
      {mode === 'create' && (
        <>
          <Divider titlePlacement="start">{t('merchants.fees')}</Divider>
          <FeeLinesField />
          <Divider titlePlacement="start">{t('merchants.bank')}</Divider>
          <Row gutter={16}>
            {(['beneficiaryBank', 'swiftCode', 'bankAddress', 'accountName', 'accountNumber', 'country', 'currency'] as const).map((f) => (
              <Col xs={24} md={f === 'country' || f === 'currency' ? 6 : 12} key={f}>
                <Form.Item name={['bankAccount', f]} label={t(`bank.${f}`)} rules={f === 'bankAddress' ? [] : [req]}>
                  {f === 'currency' ? <Select showSearch options={opts(CURRENCIES)} /> : <Input />}
                </Form.Item>
              </Col>
            ))}
          </Row>
          {attribute !== 'SUB' && (
            <>
              <Divider titlePlacement="start">{t('merchants.mainUser')}</Divider>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item name={['mainUser', 'username']} label={t('operators.username')} rules={[req, { pattern: /^[A-Za-z0-9][A-Za-z0-9_.@-]{2,63}$/, message: t('operators.usernameRule') }]}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name={['mainUser', 'email']} label={t('operators.email')} rules={[req, { type: 'email', message: t('operators.emailRule') }]} extra={t('merchants.mainUserHint')}>
                    <Input autoComplete="off" />
                  </Form.Item>
                </Col>
              </Row>
            </>
          )}
        </>
      )}
      <Space />
    </>
  );
}

/** The fee lines of a form (Form.List "fees"): business line, MDR, fixed fee, cycle, reserve, transfer. */
export function FeeLinesField() {
  const { t } = useTranslation('ops');
  const req = { required: true, whitespace: true, message: t('form.required') };
  const opts = (xs: string[]) => xs.map((x) => ({ value: x, label: x }));
  return (
    <>
      <Form.List name="fees">
        {(lines, { add, remove }) => (
          <>
            {lines.map((line) => (
              <Row gutter={8} key={line.key} className="ops-fee-line">
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'busLine']} label={t('fee.busLine')} rules={[req]}>
                    <Select options={opts(CHANNELS)} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'mdr']} label={t('fee.mdr')} rules={[{ required: true, message: t('form.required') }]}>
                    <InputNumber min={0} max={100} step={0.01} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'fixedFee']} label={t('fee.fixedFee')} rules={[{ pattern: money, message: t('form.amount') }]}>
                    <Input inputMode="decimal" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'cycleDays']} label={t('fee.cycle')} rules={[{ required: true, message: t('form.required') }]}>
                    <InputNumber min={0} max={60} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'reserve']} label={t('fee.reserve')}>
                    <InputNumber min={0} max={100} step={0.01} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'reserveHoldDays']} label={t('fee.holdDays')}>
                    <InputNumber min={0} max={720} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'tranThreshold']} label={t('fee.threshold')} rules={[{ pattern: money, message: t('form.amount') }]}>
                    <Input inputMode="decimal" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'tranFee']} label={t('fee.tranFee')} rules={[{ pattern: money, message: t('form.amount') }]}>
                    <Input inputMode="decimal" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'transferPeriod']} label={t('fee.period')} rules={[req]}>
                    <Select options={opts(PERIODS)} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <Form.Item name={[line.name, 'disputeFee']} label={t('fee.disputeFee')} tooltip={t('fee.disputeFeeHint')} rules={[{ pattern: money, message: t('form.amount') }]}>
                    <Input inputMode="decimal" />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6} className="ops-fee-line__remove">
                  <Button onClick={() => remove(line.name)} disabled={lines.length === 1}>
                    {t('fee.remove')}
                  </Button>
                </Col>
              </Row>
            ))}
            <Button onClick={() => add({ mdr: 2.5, cycleDays: 1, reserve: 0, reserveHoldDays: 0, fixedFee: '0', tranThreshold: '0', tranFee: '0', transferPeriod: 'D', disputeFee: '0' })}>
              {t('fee.add')}
            </Button>
          </>
        )}
      </Form.List>
    </>
  );
}
