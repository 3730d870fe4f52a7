import { useEffect } from 'react';
import { cookieTokens } from '../../lib/tokens';
import { chooseFullPortal } from '../phone/phone-route';

/**
 * /view-as#token=… (decision 046): the tab the back office opened for a support view. The token
 * rides in the fragment (never sent to a server, never in a log or the history: replaced at once)
 * and becomes this browser's merchant token; a view-as has no refresh token and ends on the server.
 * The full portal (not the phone screen) is shown, with its banner on every page.
 */
export default function ViewAsEntry() {
  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    history.replaceState(null, '', '/view-as');
    if (!token || !token.startsWith('va_')) {
      location.replace('/login');
      return;
    }
    cookieTokens.setTokens({ token, refreshToken: '' });
    chooseFullPortal();
    location.replace('/');
  }, []);
  return null;
}
