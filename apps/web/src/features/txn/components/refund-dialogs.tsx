import { useRef, useState } from 'react';
import { Alert, Button, Form, Input, InputNumber, Modal, Typography, type GetRef, type InputRef } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { exponentOf, SsoApi, toMinor, type TxnDetail } from '@portal/contract';
import { formatAmount } from '../../../components/money';
import { checkPassword, startSsoStepUp, stepUpOptions, useRefund } from '../api/refund';
import { passwordIcon } from '../../../components/password-icon';
import { useApp } from '../../../app/lazy-app';
import { refundNotice } from './refund-outcome';
import { apiQuery } from '../../../lib/api-query';

type Step = 'closed' | 'amount' | 'password';

const newKey = () => (crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/[^A-Za-z0-9_-]/g, '');

/**
 * Refund as spec §4: an amount dialog (at most what is still refundable, in the currency's
 * decimals), then password verification (confirm disabled while empty; /user/checkPassword grants
 * the session 5 minutes), then /txn/refund. Success: message, then /txn/list; accepted but not yet
 * confirmed by the gateway (gwResponse '04'): an info message saying it shows as processing until
 * the gateway answers, then /txn/list; failure: data.msg.
 * Issue 51: a user who signs in through SSO confirms at its identity provider instead ("Confirm
 * with SSO": a window opens there for a fresh sign-in; the dialog waits for the session's step-up,
 * then refunds) — the only way for a user without a portal password or whose merchant requires SSO.
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
  const [waitingSso, setWaitingSso] = useState(false);
  const how = useQuery({ ...apiQuery(SsoApi.stepUp, undefined, { quiet: true }), enabled: step === 'password', staleTime: 0, retry: false });
  const sso = !!how.data?.sso;
  const passwordAllowed = how.data?.password !== false;
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

  const sendRefund = async () => {
    const res = await refund.mutateAsync({ id: txn.gwGTransId, amount, txnschema: txn.mrequest.paymentSchema, requestKey });
    const notice = refundNotice(res);
    const content = notice.key ? t(notice.key) : notice.text;
    message[notice.kind]({ content, duration: notice.duration });
    if (notice.leave) {
      setStep('closed');
      setTimeout(() => navigate('/txn/list'), 800);
    }
  };

  /** Confirm at the identity provider: its window opens; the session's step-up is awaited (5 minutes at most), then the refund is sent. */
  const confirmWithSso = async () => {
    // The window opens in the click's own turn (a blocker lets it through), the provider's address follows.
    const win = window.open('about:blank', 'sso-step-up', 'popup,width=520,height=720');
    if (!win) {
      message.error(t('refund.ssoPopupBlocked'));
      return;
    }
    setWaitingSso(true);
    try {
      const { url } = await startSsoStepUp();
      win.location.href = url;
      const deadline = Date.now() + 5 * 60_000;
      let closedChecks = 0;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1500));
        const s = await stepUpOptions().catch(() => null);
        if (s?.active) {
          await sendRefund();
          return;
        }
        // The window closed without a confirmation: two more looks (its answer may still be on its way), then stop.
        if (win.closed && ++closedChecks > 2) break;
      }
      message.warning(t('refund.ssoNotConfirmed'));
    } catch {
      win.close();
      // The request client already showed the error.
    } finally {
      setWaitingSso(false);
    }
  };

  const confirm = async () => {
    setBusy(true);
    try {
      await checkPassword(password);
      await sendRefund();
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
        title={t(passwordAllowed ? 'refund.passwordTitle' : 'refund.confirmTitle')}
        okText={t('refund.confirm')}
        cancelText={t('export.cancel')}
        okButtonProps={{ disabled: !password || waitingSso, loading: busy, style: passwordAllowed ? undefined : { display: 'none' } }}
        onOk={confirm}
        onCancel={() => setStep('closed')}
        afterOpenChange={(o) => o && passwordRef.current?.focus()}
        destroyOnHidden
      >
        {passwordAllowed && (
          <>
            <Typography.Paragraph>
              {t('refund.passwordHint', { amount: `${formatAmount(amount, txn.gwCurrency, i18n.language)} ${txn.gwCurrency}`, order: txn.mrequest.orderNum })}
            </Typography.Paragraph>
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
          </>
        )}
        {/* A session from before "SSO required", of a user not yet linked to the provider: it signs in through SSO once. */}
        {!passwordAllowed && !sso && <Alert type="warning" showIcon title={t('refund.ssoSignInFirst')} />}
        {sso && (
          <div style={{ marginTop: passwordAllowed ? 16 : 0 }}>
            <Typography.Paragraph>{t('refund.ssoHint', { amount: `${formatAmount(amount, txn.gwCurrency, i18n.language)} ${txn.gwCurrency}`, order: txn.mrequest.orderNum })}</Typography.Paragraph>
            {waitingSso && <Alert type="info" showIcon title={t('refund.ssoWaiting')} style={{ marginBottom: 12 }} role="status" />}
            <Button type={passwordAllowed ? 'default' : 'primary'} onClick={confirmWithSso} loading={waitingSso} disabled={busy} autoFocus={!passwordAllowed}>
              {t('refund.ssoConfirm')}
            </Button>
          </div>
        )}
      </Modal>
    </>
  );
  return { open, dialogs, canRefund: txn.gwTranType === 'PURC' && txn.gwResponse === '00' && max > 0 };
}
