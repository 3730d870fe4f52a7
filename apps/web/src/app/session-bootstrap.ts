import { http } from '../lib/http';
import { getSession, setSession } from '../lib/session';
import { setChosenZone } from '../lib/time';
import { AuthApi, SessionApi } from '@portal/contract';

let loading: Promise<void> | null = null;

/**
 * First entry after sign-in (spec §4): merchant info when the merchant id list is still empty,
 * then user info (its routers become the shell's routes). Quiet: the caller shows the failure.
 * Concurrent callers share one load.
 */
export function loadSession(): Promise<void> {
  loading ??= (async () => {
    if (!getSession().merchant?.subMerIdList.length) {
      setSession({ merchant: await http.call(SessionApi.merchantInfo, undefined, { quiet: true }) });
    }
    const user = await http.call(AuthApi.info, { flag: 'N' }, { quiet: true });
    // Before the screens render: every time they show is in the zone the user chose.
    setChosenZone(user.timeZone);
    setSession({ user });
  })().finally(() => {
    loading = null;
  });
  return loading;
}
