/**
 * The phone home screen's route (decision 042): /m. A phone (≤ 600 px wide) opening the portal's
 * root lands there; "Full portal" on the phone screen sets FULL_PORTAL_KEY for the tab, so the
 * full portal's root stays where it is afterwards.
 */
export const PHONE_PATH = '/m';
const PHONE_MAX_WIDTH = 600;
const FULL_PORTAL_KEY = 'mp_full_portal';

function isPhoneWidth(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia?.(`(max-width: ${PHONE_MAX_WIDTH}px)`).matches;
}

function choseFullPortal(): boolean {
  try {
    return sessionStorage.getItem(FULL_PORTAL_KEY) === '1';
  } catch {
    return false;
  }
}

/** True when a visit to `pathname` goes to the phone home screen instead (the root, on a phone, unless the full portal was chosen). */
export function landsOnPhone(pathname: string): boolean {
  return pathname === '/' && isPhoneWidth() && !choseFullPortal();
}

export function chooseFullPortal(): void {
  try {
    sessionStorage.setItem(FULL_PORTAL_KEY, '1');
  } catch {
    /* private mode: the link still goes to the full portal once */
  }
}
