/** Server texts of refused input (issue 10): the strict input primitives and zod's own checks. */
export const INPUT_MESSAGES = {
  inputControlChars: {
    en: 'must not contain control characters',
    zh: '不能包含控制字符',
    ko: '제어 문자를 포함할 수 없습니다',
    ja: '制御文字を含めることはできません',
  },
  inputTooLong: { en: 'at most {max} characters', zh: '最多 {max} 个字符', ko: '최대 {max}자', ja: '{max} 文字以内' },
  inputTooShort: { en: 'at least {min} characters', zh: '至少 {min} 个字符', ko: '최소 {min}자', ja: '{min} 文字以上' },
  inputDate: {
    en: 'must be a real date yyyy-MM-dd (years {min}–{max})',
    zh: '必须是有效日期 yyyy-MM-dd（{min}–{max} 年）',
    ko: '올바른 날짜 yyyy-MM-dd 형식이어야 합니다({min}–{max}년)',
    ja: '正しい日付 yyyy-MM-dd で入力してください（{min}–{max} 年）',
  },
  inputDateTime: {
    en: 'must be a real date and time yyyy-MM-dd HH:mm:ss (years {min}–{max})',
    zh: '必须是有效日期时间 yyyy-MM-dd HH:mm:ss（{min}–{max} 年）',
    ko: '올바른 날짜와 시간 yyyy-MM-dd HH:mm:ss 형식이어야 합니다({min}–{max}년)',
    ja: '正しい日時 yyyy-MM-dd HH:mm:ss で入力してください（{min}–{max} 年）',
  },
  inputDateOrDateTime: {
    en: 'must be a real date yyyy-MM-dd or yyyy-MM-dd HH:mm:ss (years {min}–{max})',
    zh: '必须是有效日期 yyyy-MM-dd 或 yyyy-MM-dd HH:mm:ss（{min}–{max} 年）',
    ko: '올바른 날짜 yyyy-MM-dd 또는 yyyy-MM-dd HH:mm:ss 형식이어야 합니다({min}–{max}년)',
    ja: '正しい日付 yyyy-MM-dd または yyyy-MM-dd HH:mm:ss で入力してください（{min}–{max} 年）',
  },
  inputRangeReversed: {
    en: '{begin} must not be after {end}',
    zh: '{begin} 不能晚于 {end}',
    ko: '{begin}은(는) {end}보다 늦을 수 없습니다',
    ja: '{begin} は {end} より後にできません',
  },
  inputRangeRequired: {
    en: '{begin} and {end} are required',
    zh: '{begin} 和 {end} 为必填项',
    ko: '{begin}과(와) {end}은(는) 필수입니다',
    ja: '{begin} と {end} は必須です',
  },
  inputWrongType: { en: 'expected {expected}', zh: '类型错误，应为 {expected}', ko: '잘못된 형식입니다({expected} 필요)', ja: '型が正しくありません（{expected} が必要）' },
  inputRequired: { en: 'required', zh: '必填', ko: '필수 항목입니다', ja: '必須です' },
  inputTooBig: { en: 'at most {max}', zh: '不能大于 {max}', ko: '{max} 이하여야 합니다', ja: '{max} 以下にしてください' },
  inputTooSmall: { en: 'at least {min}', zh: '不能小于 {min}', ko: '{min} 이상이어야 합니다', ja: '{min} 以上にしてください' },
  inputOneOf: { en: 'must be one of: {values}', zh: '必须是以下之一：{values}', ko: '다음 중 하나여야 합니다: {values}', ja: '次のいずれかにしてください：{values}' },
  inputFormat: { en: 'wrong format{hint}', zh: '格式错误{hint}', ko: '형식이 올바르지 않습니다{hint}', ja: '形式が正しくありません{hint}' },
  inputUnknownKeys: { en: 'unknown field(s): {keys}', zh: '未知字段：{keys}', ko: '알 수 없는 필드: {keys}', ja: '不明な項目：{keys}' },
  inputInvalid: { en: 'invalid value', zh: '值无效', ko: '잘못된 값입니다', ja: '値が正しくありません' },
} as const;
