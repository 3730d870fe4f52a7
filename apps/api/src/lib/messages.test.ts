import { describe, expect, it } from 'vitest';
import { t } from './messages';

describe('messages: counted words by the language\'s plural rules (issue 53: no "(s)")', () => {
  it('says one chance, 4 chances, 1 minute, 30 minutes in English; the other languages have one form', () => {
    expect(t('en', 'wrongPassword', { n: 1 })).toBe('Wrong password, 1 chance remaining');
    expect(t('en', 'wrongPassword', { n: 4 })).toBe('Wrong password, 4 chances remaining');
    expect(t('en', 'wrongPassword', { n: 0 })).toBe('Wrong password, 0 chances remaining');
    expect(t('en', 'userLocked', { m: 1 })).toBe('User is locked, please try again in 1 minute');
    expect(t('en', 'codeResendTooSoon', { s: 1 })).toBe('Please wait 1 second before requesting a new code');
    expect(t('en', 'codeResendTooSoon', { s: 42 })).toBe('Please wait 42 seconds before requesting a new code');
    expect(t('en', 'uploadRowsInvalid', { n: 1 })).toBe('1 row has errors; nothing was imported');
    expect(t('ja', 'wrongPassword', { n: 1 })).toBe('パスワードが違います。残り 1 回');
  });

  it('leaves no "(s)" in any English message', async () => {
    const { MESSAGES } = await import('./messages');
    const left = Object.entries(MESSAGES)
      .filter(([, m]) => /\w\(s\)/.test((m as { en: string }).en))
      .map(([k]) => k);
    expect(left).toEqual([]);
  });
});
