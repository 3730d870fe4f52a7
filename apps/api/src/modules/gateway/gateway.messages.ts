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
  // Issues 46 and 47: a feature needing the secret-sealing key, without a usable one (HTTP 503).
  secretKeyMissing: {
    en: 'This server has no PROVIDER_KEY_ENCRYPTION_KEY, which sealed secrets (gateway connection keys, webhook signing secrets) need: the operator must set it and restart the server',
    zh: '本服务器未配置 PROVIDER_KEY_ENCRYPTION_KEY，而加密保存的密钥（网关连接密钥、Webhook 签名密钥）需要它：请运维人员设置后重启服务器',
    ko: '이 서버에는 봉인된 비밀(게이트웨이 연결 키, 웹훅 서명 비밀)에 필요한 PROVIDER_KEY_ENCRYPTION_KEY가 없습니다: 운영자가 설정한 뒤 서버를 다시 시작해야 합니다',
    ja: 'このサーバーには、封印されたシークレット（ゲートウェイ接続キー、Webhook 署名シークレット）に必要な PROVIDER_KEY_ENCRYPTION_KEY がありません：運用担当者が設定してサーバーを再起動する必要があります',
  },
  secretKeyMismatch: {
    en: "This server's PROVIDER_KEY_ENCRYPTION_KEY does not open a stored secret (gateway connection key or webhook signing secret): the operator must set the key it was sealed with and restart the server",
    zh: '本服务器的 PROVIDER_KEY_ENCRYPTION_KEY 无法解开已保存的密钥（网关连接密钥或 Webhook 签名密钥）：请运维人员设置加密时所用的密钥并重启服务器',
    ko: '이 서버의 PROVIDER_KEY_ENCRYPTION_KEY로는 저장된 비밀(게이트웨이 연결 키 또는 웹훅 서명 비밀)을 열 수 없습니다: 운영자가 봉인에 사용한 키를 설정하고 서버를 다시 시작해야 합니다',
    ja: 'このサーバーの PROVIDER_KEY_ENCRYPTION_KEY では保存済みシークレット（ゲートウェイ接続キーまたは Webhook 署名シークレット）を開けません：運用担当者が封印に使った鍵を設定してサーバーを再起動する必要があります',
  },
  // Issue 47: the feed's window and the ledger's months (made only by the partition job).
  gwTimeOutsideWindow: {
    en: 'currentTime is outside the accepted window: from {from} to {to} (the portal clock, {back} days back to {ahead} days ahead)',
    zh: 'currentTime 超出可接受范围：{from} 至 {to}（以平台时钟为准，向前 {back} 天至向后 {ahead} 天）',
    ko: 'currentTime이 허용 범위를 벗어났습니다: {from} ~ {to} (포털 시계 기준 {back}일 전 ~ {ahead}일 후)',
    ja: 'currentTime が受付範囲外です：{from} 〜 {to}（ポータルの時計で {back} 日前から {ahead} 日後まで）',
  },
  gwMonthNotReady: {
    en: 'The ledger has no month {month} yet (the partition job creates the months of the feed window): send the row again later',
    zh: '账本尚未建立 {month} 月份（由分区任务为接收窗口建立月份）：请稍后重新发送该笔',
    ko: '원장에 아직 {month} 월이 없습니다(파티션 작업이 수신 범위의 월을 만듭니다): 나중에 이 행을 다시 보내십시오',
    ja: '台帳にはまだ {month} の月がありません（パーティションジョブが受付範囲の月を作成します）：後でこの行を再送してください',
  },
} as const;
