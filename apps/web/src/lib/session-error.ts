/**
 * Why the last session was refused (spec §4: "token cleared, error shown, back to /login"). The
 * guard that finds out hands the text to the sign-in page, which shows it once it is on screen: a
 * message raised while the route is still changing could be lost, and a reload keeps it too.
 */
const KEY = 'mp_session_error';

export function rememberSessionError(text: string): void {
  try {
    sessionStorage.setItem(KEY, text);
  } catch {
    /* storage disabled: the message is simply not carried over */
  }
}

export function takeSessionError(): string | null {
  try {
    const text = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return text;
  } catch {
    return null;
  }
}
