/** Messages of the provider face (gateway connections, feed, imports, reconciliation), en / zh / ko / ja. */
export const GATEWAY_MESSAGES = {
  gwUnauthorized: {
    en: 'Request not authenticated: {reason}',
    zh: '请求未通过认证：{reason}',
    ko: '요청이 인증되지 않았습니다: {reason}',
    ja: 'リクエストは認証されていません：{reason}',
  },
  gwMerchantNotAllowed: {
    en: 'This connection may not report for merchant {merId}',
    zh: '此连接无权报送商户 {merId} 的交易',
    ko: '이 연결은 가맹점 {merId}의 거래를 보고할 수 없습니다',
    ja: 'この接続は加盟店 {merId} の取引を報告できません',
  },
  gwTransConflict: {
    en: 'Gateway transaction {gwTransId} was already received with other content ({field})',
    zh: '网关交易 {gwTransId} 已以不同内容接收（{field}）',
    ko: '게이트웨이 거래 {gwTransId}은(는) 이미 다른 내용으로 수신되었습니다 ({field})',
    ja: 'ゲートウェイ取引 {gwTransId} は別の内容で受信済みです（{field}）',
  },
  gwTransNotFound: {
    en: 'Gateway transaction {gwTransId} not found',
    zh: '未找到网关交易 {gwTransId}',
    ko: '게이트웨이 거래 {gwTransId}을(를) 찾을 수 없습니다',
    ja: 'ゲートウェイ取引 {gwTransId} が見つかりません',
  },
  gwStatusFinal: {
    en: 'Transaction {gwTransId} is already final with result {current}',
    zh: '交易 {gwTransId} 已是最终状态（结果 {current}）',
    ko: '거래 {gwTransId}은(는) 이미 최종 상태입니다 (결과 {current})',
    ja: '取引 {gwTransId} は既に確定しています（結果 {current}）',
  },
  gwStatusNotFinal: {
    en: 'A status update must give a final result (00 success, another code failed), not processing',
    zh: '状态更新必须给出最终结果（00 成功，其他代码失败），不能是处理中',
    ko: '상태 업데이트는 처리 중이 아닌 최종 결과(00 성공, 그 외 실패)여야 합니다',
    ja: 'ステータス更新は処理中ではなく最終結果（00 成功、その他は失敗）である必要があります',
  },
  gwBatchSize: {
    en: 'A batch holds 1 to {max} transactions',
    zh: '每批包含 1 至 {max} 笔交易',
    ko: '배치에는 1~{max}건의 거래가 들어갑니다',
    ja: '1 バッチの取引数は 1〜{max} 件です',
  },
  gwRowInvalid: {
    en: 'Invalid field {field}: {detail}',
    zh: '字段 {field} 无效：{detail}',
    ko: '필드 {field}이(가) 올바르지 않습니다: {detail}',
    ja: 'フィールド {field} が無効です：{detail}',
  },
  // Issue 47: strict text on the one ingestion path (a NUL byte reached the database and failed the batch).
  gwFieldControlChars: {
    en: 'Invalid field {field}: must not contain control characters (NUL, C0, C1) or broken characters',
    zh: '字段 {field} 无效：不能包含控制字符（NUL、C0、C1）或损坏的字符',
    ko: '필드 {field}이(가) 올바르지 않습니다: 제어 문자(NUL, C0, C1)나 깨진 문자를 포함할 수 없습니다',
    ja: 'フィールド {field} が無効です：制御文字（NUL、C0、C1）や壊れた文字を含めることはできません',
  },
} as const;
