import type { Language } from '@portal/contract';
import { INPUT_MESSAGES } from './input.messages';

type Msg = Record<Language, string>;

/**
 * The server's own messages (the envelope's, sign-in's, input checking's), in the four languages.
 * `{name}` marks a parameter. The modules' catalogues (`<m>.messages.ts`) are listed in
 * `modules/messages.ts`, which adds them here (`addMessages`) and their keys to `ModuleMessages`:
 * this file names no module (issue 45 §1).
 */
const CORE_MESSAGES = {
  success: { en: 'success', zh: '成功', ko: '성공', ja: '成功' },
  error: { en: 'Error', zh: '错误', ko: '오류', ja: 'エラー' },
  serverError: {
    en: 'Internal server error, please try again later',
    zh: '服务器内部错误，请稍后重试',
    ko: '서버 내부 오류입니다. 잠시 후 다시 시도하세요',
    ja: 'サーバー内部エラーです。しばらくしてから再試行してください',
  },
  /** The 500 answer a person reads: with the request id to quote to support (issue 27). */
  serverErrorRef: {
    en: 'Internal server error, please try again later (reference {ref} for support)',
    zh: '服务器内部错误，请稍后重试（联系客服请提供参考号 {ref}）',
    ko: '서버 내부 오류입니다. 잠시 후 다시 시도하세요 (고객 지원 문의 시 참조 번호 {ref})',
    ja: 'サーバー内部エラーです。しばらくしてから再試行してください（サポートへの参照番号 {ref}）',
  },
  badRequest: { en: 'Invalid request: {detail}', zh: '请求参数错误：{detail}', ko: '잘못된 요청: {detail}', ja: '不正なリクエスト：{detail}' },
  notFound: { en: 'Not found', zh: '记录不存在', ko: '찾을 수 없습니다', ja: '見つかりません' },
  forbidden: {
    en: 'You do not have permission for this operation',
    zh: '您没有此操作的权限',
    ko: '이 작업에 대한 권한이 없습니다',
    ja: 'この操作の権限がありません',
  },
  tooMany: { en: 'Too many requests, please slow down', zh: '请求过于频繁，请稍后再试', ko: '요청이 너무 많습니다. 잠시 후 다시 시도하세요', ja: 'リクエストが多すぎます。しばらくお待ちください' },
  notLoggedIn: { en: 'Please log in', zh: '请先登录', ko: '로그인하세요', ja: 'ログインしてください' },
  tokenExpired: { en: 'Token expired', zh: '令牌已过期', ko: '토큰이 만료되었습니다', ja: 'トークンの有効期限が切れました' },
  tokenInvalid: {
    en: 'You have been logged out',
    zh: '您已登出',
    ko: '로그아웃되었습니다',
    ja: 'ログアウトされました',
  },
  sessionEnded: {
    en: 'Your session has ended, please log in again',
    zh: '会话已结束，请重新登录',
    ko: '세션이 종료되었습니다. 다시 로그인하세요',
    ja: 'セッションが終了しました。再度ログインしてください',
  },
  refreshInvalid: {
    en: 'Your session has ended, please log in again',
    zh: '会话已结束，请重新登录',
    ko: '세션이 종료되었습니다. 다시 로그인하세요',
    ja: 'セッションが終了しました。再度ログインしてください',
  },
  userNotExist: { en: 'User does not exist', zh: '用户不存在', ko: '사용자가 존재하지 않습니다', ja: 'ユーザーが存在しません' },
  invalidUsername: { en: 'Invalid user name', zh: '用户名无效', ko: '잘못된 사용자 이름입니다', ja: 'ユーザー名が無効です' },
  wrongPassword: {
    en: 'Wrong password, {n} {n:chance|chances} remaining',
    zh: '密码错误，还剩 {n} 次机会',
    ko: '비밀번호가 틀렸습니다. 남은 기회: {n}회',
    ja: 'パスワードが違います。残り {n} 回',
  },
  signInFailed: {
    en: 'Wrong user name or password, {n} {n:chance|chances} remaining',
    zh: '用户名或密码错误，还剩 {n} 次机会',
    ko: '사용자 이름 또는 비밀번호가 틀렸습니다. 남은 기회: {n}회',
    ja: 'ユーザー名またはパスワードが違います。残り {n} 回',
  },
  userLocked: {
    en: 'User is locked, please try again in {m} {m:minute|minutes}',
    zh: '用户已锁定，请 {m} 分钟后再试',
    ko: '사용자가 잠겼습니다. {m}분 후에 다시 시도하세요',
    ja: 'ユーザーはロックされています。{m} 分後に再試行してください',
  },
  userNotActivated: {
    en: 'User not activated, please check your e-mail',
    zh: '用户未激活，请查收邮件',
    ko: '사용자가 활성화되지 않았습니다. 이메일을 확인하세요',
    ja: 'ユーザーが有効化されていません。メールをご確認ください',
  },
  verifyCodeError: { en: 'Verification code error', zh: '验证码错误', ko: '인증 코드 오류', ja: '認証コードが正しくありません' },
  codeResendTooSoon: {
    en: 'Please wait {s} {s:second|seconds} before requesting a new code',
    zh: '请 {s} 秒后再获取验证码',
    ko: '{s}초 후에 새 코드를 요청하세요',
    ja: '{s} 秒後に再度コードを取得してください',
  },
  sendMailSuccess: { en: 'Send mail success', zh: '邮件发送成功', ko: '메일 발송 성공', ja: 'メール送信に成功しました' },
  sendMailFailed: { en: 'Send mail failed', zh: '邮件发送失败', ko: '메일 발송 실패', ja: 'メール送信に失敗しました' },
  originalPasswordIncorrect: {
    en: 'Original password incorrect, {n} {n:chance|chances} remaining',
    zh: '原密码错误，还剩 {n} 次机会',
    ko: '기존 비밀번호가 틀렸습니다. 남은 기회: {n}회',
    ja: '元のパスワードが正しくありません。残り {n} 回',
  },
  refundPasswordIncorrect: {
    en: 'The password for this refund is not correct. Tries left before your sign-in is locked: {n}',
    zh: '本次退款的密码验证未通过：再错 {n} 次登录将被锁定',
    ko: '이 환불의 비밀번호 확인에 실패했습니다. {n}회 더 틀리면 로그인이 잠깁니다',
    ja: 'この返金のパスワード確認に失敗しました。あと {n} 回間違えるとログインがロックされます',
  },
  // e-mail texts
  mailCodeSubject: { en: 'Your sign-in verification code', zh: '您的登录验证码', ko: '로그인 인증 코드', ja: 'ログイン認証コード' },
  mailCodeBody: {
    en: 'Hello {user},\n\nYour verification code is {code}. It is valid for 5 minutes.\nIf you did not try to sign in, ignore this e-mail and consider changing your password.',
    zh: '{user} 您好：\n\n您的验证码是 {code}，5 分钟内有效。\n如果不是您本人登录，请忽略本邮件并考虑修改密码。',
    ko: '{user}님 안녕하세요.\n\n인증 코드는 {code}입니다. 5분간 유효합니다.\n로그인을 시도하지 않았다면 이 메일을 무시하고 비밀번호 변경을 고려하세요.',
    ja: '{user} 様\n\n認証コードは {code} です。有効期限は 5 分です。\nお心当たりのない場合はこのメールを破棄し、パスワードの変更をご検討ください。',
  },
  ...INPUT_MESSAGES,
} satisfies Record<string, Msg>;

/**
 * The modules' messages by key: `modules/messages.ts` augments this interface with its catalogue's
 * type, so `t()` keys stay checked by the compiler without this file importing a module.
 */
// oxlint-disable-next-line typescript/no-empty-interface, typescript/no-empty-object-type
export interface ModuleMessages {}

type Catalogue = typeof CORE_MESSAGES & ModuleMessages;
export type MessageKey = keyof Catalogue;

/** Every message the server sends: the core's, then the modules' (added at start by `modules/messages.ts`). */
export const MESSAGES: Catalogue = { ...CORE_MESSAGES } as Catalogue;

/** Adds a catalogue of module messages (once, from `modules/messages.ts`). */
export function addMessages(catalogue: Readonly<Record<string, Msg>>): void {
  Object.assign(MESSAGES, catalogue);
}

export function t(lang: Language, key: MessageKey, params: Record<string, string | number> = {}): string {
  const m: Msg = (MESSAGES as unknown as Record<string, Msg>)[key];
  return m[lang]
    .replace(/\{(\w+):([^|{}]*)\|([^{}]*)\}/g, (whole, k, one, other) => (k in params ? plural(lang, Number(params[k]), one, other) : whole))
    .replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

/**
 * `{n:chance|chances}`: the word for the count `n` by the language's plural rules (issue 53: "(s)"
 * was written after every counted word). Only English has two forms among the four.
 */
function plural(lang: Language, n: number, one: string, other: string): string {
  return new Intl.PluralRules(lang).select(n) === 'one' ? one : other;
}
