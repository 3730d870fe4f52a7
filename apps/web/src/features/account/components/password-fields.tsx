import { Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { usePasswordPolicy } from '../api/account';
import { passwordIcon } from '../../../components/password-icon';

/** New password + confirmation, checked as the server will (letters and digits, minimum length, equal). */
export function PasswordFields() {
  const { t } = useTranslation('account');
  const n = usePasswordPolicy().data?.minLength ?? 8;
  return (
    <>
      <Form.Item
        name="newPassword"
        label={t('newPassword')}
        extra={t('rules', { n })}
        rules={[
          { required: true, message: t('required') },
          { validator: (_, v: string) => (!v || ([...v].length >= n && /[A-Za-z]/.test(v) && /\d/.test(v)) ? Promise.resolve() : Promise.reject(new Error(t('rulesError', { n })))) },
        ]}
      >
        <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('confirmPassword')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('required') },
          ({ getFieldValue }) => ({ validator: (_, v: string) => (!v || v === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error(t('mismatch')))) }),
        ]}
      >
        <Input.Password iconRender={passwordIcon} prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
