import { useRef, useState } from 'react';
import { Form, Input, InputNumber, Modal, Typography, type GetRef, type InputRef } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { exponentOf, toMinor, type TxnDetail } from '@portal/contract';
import { formatAmount } from '../../../components/money';
import { checkPassword, useRefund } from '../api/refund';
import { passwordIcon } from '../../../components/password-icon';
import { useApp } from '../../../app/lazy-app';
import { refundNotice } from './refund-outcome';

type Step = 'closed' | 'amount' | 'password';

const newKey = () => (crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/[^A-Za-z0-9_-]/g, '');

/**
 * Refund as spec §4: an amount dialog (at most what is still refundable, in the currency's
 * decimals), then password verification (confirm disabled while empty; /user/checkPassword grants
 * the session 5 minutes), then /txn/refund. Success: message, then /txn/list; accepted but not yet
 * confirmed by the gateway (gwResponse '04'): an info message saying it shows as processing until
 * the gateway answers, then /txn/list; failure: data.msg.
 */
export function useRefundDialogs(txn: TxnDetail) {
  const { t, i18n } = useTranslation('txn');
  const { message } = useApp();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('closed');
  const [amount, setAmount] = useState<string>('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [requestKey, setRequestKey] = useState(newKey);
  const refund = useRefund();
  // The dialog takes the focus when it opens; hand it to the field (keyboard users start typing at once).
  const amountRef = useRef<GetRef<typeof InputNumber>>(null);
  const passwordRef = useRef<InputRef>(null);
  const decimals = exponentOf(txn.gwCurrency);
  const max = Number(txn.refundable);

  const open = () => {
    setAmount('');
    setPassword('');
    setRequestKey(newKey());
    setStep('amount');
  };

  const confirm = async () => {
    setBusy(true);
    try {
      await checkPassword(password);
      const res = await refund.mutateAsync({ id: txn.gwGTransId, amount, txnschema: txn.mrequest.paymentSchema, requestKey });
      const notice = refundNotice(res);
      const content = notice.key ? t(notice.key) : notice.text;
      message[notice.kind]({ content, duration: notice.duration });
      if (notice.leave) {
        setStep('closed');
        setTimeout(() => navigate('/txn/list'), 800);
      }
    } catch {
      // The request client already showed the error (wrong password, …).
    } finally {
      setBusy(false);
      setPassword('');
    }
  };

  /** Why Next is disabled, said under the field (issue 13, fix 9); null when the amount is fine. */
  const amountProblem = ((): string | null => {
    if (!amount) return '';
    try {
      const m = toMinor(amount, txn.gwCurrency);
      if (m <= 0) return t('refund.amountPositive');
      if (m > toMinor(txn.refundable, txn.gwCurrency)) return t('refund.amountTooHigh', { amount: `${formatAmount(txn.refundable, txn.gwCurrency, i18n.language)} ${txn.gwCurrency}` });
      return null;
    } catch {
      return t('refund.amountInvalid', { decimals: decimals });
    }
  })();
  const amountValid = amountProblem === null;

  const dialogs = (
    <>
      <Modal
        open={step === 'amount'}
        title={t('refund.amountTitle')}
        okText={t('refund.next')}
        cancelText={t('export.cancel')}
        okButtonProps={{ disabled: !amountValid }}
        onOk={() => setStep('password')}
        onCancel={() => setStep('closed')}
        afterOpenChange={(o) => o && amountRef.current?.focus()}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('refund.refundable', { amount: `${formatAmount(txn.refundable, txn.gwCurrency, i18n.language)} ${txn.gwCurrency}` })}</Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label={t('refund.amount')} required validateStatus={amountProblem ? 'error' : undefined} help={amountProblem || undefined}>
            <InputNumber<string>
              aria-label={t('refund.amount')}
              style={{ width: '100%' }}
              stringMode
              precision={decimals}
              step={decimals ? (1 / 10 ** decimals).toFixed(decimals) : '1'}
              value={amount || null}
              onChange={(v) => setAmount(v ?? '')}
              suffix={txn.gwCurrency}
              ref={amountRef}
              // Enter goes on as Next does (issue 29 §6: it did nothing). The key is spent here: not a
              // form submit, and not a click on the Refund button the closing dialog hands the focus back to.
              onPressEnter={(e) => {
                e.preventDefault();
                if (amountValid) setStep('password');
              }}
              autoFocus
            />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={step === 'password'}
        title={t('refund.passwordTitle')}
        okText={t('refund.confirm')}
        cancelText={t('export.cancel')}
        okButtonProps={{ disabled: !password, loading: busy }}
        onOk={confirm}
        onCancel={() => setStep('closed')}
        afterOpenChange={(o) => o && passwordRef.current?.focus()}
        destroyOnHidden
      >
        <Typography.Paragraph>{t('refund.passwordHint', { amount: `${formatAmount(amount, txn.gwCurrency, i18n.language)} ${txn.gwCurrency}`, order: txn.mrequest.orderNum })}</Typography.Paragraph>
        <Input.Password
          iconRender={passwordIcon}
          ref={passwordRef}
          aria-label={t('refund.password')}
          placeholder={t('refund.password')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onPressEnter={() => password && confirm()}
          autoFocus
          autoComplete="current-password"
        />
      </Modal>
    </>
  );
  return { open, dialogs, canRefund: txn.gwTranType === 'PURC' && txn.gwResponse === '00' && max > 0 };
}
