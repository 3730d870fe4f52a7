import { resetByLink, resetInfo } from './api/account';
import { LinkPasswordPage } from './components/link-password-page';

/** /user/reset?token=… (public): opened from the reset e-mail; a new password, every session ends. */
export default function ResetPasswordPage() {
  return <LinkPasswordPage keys="reset" load={resetInfo} save={resetByLink} expired={{ to: '/user/forgot', label: 'forgot.title' }} />;
}
