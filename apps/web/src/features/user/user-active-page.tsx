import { activate, activeInfo } from '../account/api/account';
import { LinkPasswordPage } from '../account/components/link-password-page';

/** /user/active?token=… (public): opened from the activation e-mail; sets the first password. */
export default function UserActivePage() {
  return <LinkPasswordPage keys="active" load={activeInfo} save={activate} expired={{ to: '/login', label: 'backToLogin' }} />;
}
