/**
 * Server messages of exchange rates (issue 46): the provider API's and the rates file's per-row
 * answers, the back office's rates screen and the one settlement-date rule. Spread into MESSAGES.
 */
export const FX_MESSAGES = {
  fxRowInvalid: {
    en: 'Invalid rate row: {detail}',
    zh: '汇率行无效：{detail}',
    ko: '잘못된 환율 행: {detail}',
    ja: '為替レートの行が不正です：{detail}',
  },
  fxDateInvalid: {
    en: 'The rate date must be a date YYYY-MM-DD',
    zh: '汇率日期必须是 YYYY-MM-DD 格式的日期',
    ko: '환율 날짜는 YYYY-MM-DD 형식의 날짜여야 합니다',
    ja: 'レートの日付は YYYY-MM-DD 形式の日付でなければなりません',
  },
  fxDateFuture: {
    en: 'A rate for {date} is too early: rates are accepted up to tomorrow ({last}, platform time zone)',
    zh: '{date} 的汇率过早：最多只接受到明天（{last}，平台时区）的汇率',
    ko: '{date} 환율은 너무 이릅니다: 내일({last}, 플랫폼 시간대)까지의 환율만 받습니다',
    ja: '{date} のレートは早すぎます：受け付けるのは明日（{last}、プラットフォームのタイムゾーン）までです',
  },
  fxSamePair: {
    en: 'A rate converts between two different currencies ({currency} to itself is always 1)',
    zh: '汇率必须在两种不同货币之间（{currency} 兑自身恒为 1）',
    ko: '환율은 서로 다른 두 통화 사이의 값입니다 ({currency} 자신에 대한 환율은 항상 1)',
    ja: 'レートは異なる二つの通貨の間のものです（{currency} 自身へのレートは常に 1）',
  },
  fxRateInvalid: {
    en: 'Rate "{rate}" is not valid: a decimal string above 0 with at most 12 digits before and 12 after the point, e.g. "7.8125"',
    zh: '汇率“{rate}”无效：须为大于 0 的十进制字符串，小数点前后各最多 12 位，例如 "7.8125"',
    ko: '환율 "{rate}"이(가) 올바르지 않습니다: 0보다 큰 십진수 문자열(소수점 앞뒤 각각 최대 12자리), 예: "7.8125"',
    ja: 'レート「{rate}」が不正です：0 より大きい10進数の文字列（小数点の前後それぞれ12桁まで）、例 "7.8125"',
  },
  fxRateExists: {
    en: 'The rate {from}→{to} of {date} is already {rate}: to replace it, send the row as a correction',
    zh: '{date} 的 {from}→{to} 汇率已为 {rate}：如需替换，请以更正方式提交',
    ko: '{date}의 {from}→{to} 환율은 이미 {rate}입니다: 바꾸려면 정정으로 보내세요',
    ja: '{date} の {from}→{to} のレートは既に {rate} です：置き換えるには訂正として送ってください',
  },
  fxRowTwice: {
    en: 'This day and pair already came in row {first} of the same request',
    zh: '同一请求的第 {first} 行已包含此日期和货币对',
    ko: '같은 요청의 {first}번째 행에 이미 이 날짜와 통화쌍이 있습니다',
    ja: '同じリクエストの {first} 行目に同じ日付と通貨ペアがあります',
  },
  fxCorrectedSettled: {
    en: 'Corrected. {n} transactions already settled with the earlier rate {rate} keep it: settled money is never converted again (book an adjustment if it must move)',
    zh: '已更正。已按原汇率 {rate} 结算的 {n} 笔交易保持不变：已结算金额不会重新换算（如需调整请录入调账）',
    ko: '정정되었습니다. 이전 환율 {rate}(으)로 이미 정산된 거래 {n}건은 그대로입니다: 정산된 금액은 다시 환산되지 않습니다 (조정이 필요하면 조정 전표를 입력하세요)',
    ja: '訂正しました。以前のレート {rate} で精算済みの取引 {n} 件はそのままです：精算済みの金額は再換算されません（動かす必要があれば調整を計上してください）',
  },
  fxRequestNotPending: {
    en: 'This rate request has already been decided',
    zh: '此汇率申请已处理',
    ko: '이 환율 요청은 이미 처리되었습니다',
    ja: 'このレート申請は既に処理されています',
  },
  fxRequestRefused: {
    en: 'The rate cannot be applied: {reason}',
    zh: '无法应用此汇率：{reason}',
    ko: '환율을 적용할 수 없습니다: {reason}',
    ja: 'このレートは適用できません：{reason}',
  },
  fxFileHeader: {
    en: 'A rates file starts with the header date,from,to,rate (optionally ,correction)',
    zh: '汇率文件须以表头 date,from,to,rate（可选 ,correction）开始',
    ko: '환율 파일은 date,from,to,rate (선택: ,correction) 머리글로 시작해야 합니다',
    ja: 'レートファイルはヘッダー date,from,to,rate（任意で ,correction）で始まります',
  },
  paySettleDayNotOver: {
    en: 'Settlement date {date} cannot be run yet: a day is settled once it is over in the platform time zone ({tz}), so dates can be run up to yesterday ({last})',
    zh: '结算日 {date} 暂不能运行：某日在平台时区（{tz}）结束后才能结算，因此只能运行截至昨天（{last}）的日期',
    ko: '정산일 {date}은(는) 아직 실행할 수 없습니다: 하루는 플랫폼 시간대({tz})에서 끝난 뒤에 정산되므로 어제({last})까지의 날짜만 실행할 수 있습니다',
    ja: '精算日 {date} はまだ実行できません：日はプラットフォームのタイムゾーン（{tz}）で終わってから精算されるため、実行できるのは昨日（{last}）までの日付です',
  },
} as const;
