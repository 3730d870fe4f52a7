/** Server messages of webhooks (spread into MESSAGES). */
export const WEBHOOK_MESSAGES = {
  webhookForeignMerchant: {
    en: 'Merchant {merId} is not one of your merchants',
    zh: '商户 {merId} 不在您的商户范围内',
    ko: '가맹점 {merId}은(는) 귀하의 가맹점이 아닙니다',
    ja: '加盟店 {merId} はお客様の加盟店ではありません',
  },
  webhookHttpsOnly: {
    en: 'The endpoint URL must use https',
    zh: '端点 URL 必须使用 https',
    ko: '엔드포인트 URL은 https를 사용해야 합니다',
    ja: 'エンドポイントの URL は https である必要があります',
  },
  webhookPrivateAddress: {
    en: 'The endpoint URL must not point to a loopback, private or link-local address',
    zh: '端点 URL 不能指向回环、私有或链路本地地址',
    ko: '엔드포인트 URL은 루프백, 사설 또는 링크 로컬 주소를 가리킬 수 없습니다',
    ja: 'エンドポイントの URL にループバック・プライベート・リンクローカルのアドレスは使えません',
  },
  webhookTooMany: {
    en: 'A merchant can have at most {max} webhook endpoints',
    zh: '每个商户最多只能有 {max} 个 Webhook 端点',
    ko: '가맹점당 웹훅 엔드포인트는 최대 {max}개입니다',
    ja: '加盟店ごとの Webhook エンドポイントは最大 {max} 件です',
  },
  webhookDisabled: {
    en: 'The endpoint is disabled: enable it first',
    zh: '该端点已停用，请先启用',
    ko: '엔드포인트가 비활성화되어 있습니다. 먼저 활성화하세요',
    ja: 'エンドポイントは無効です。先に有効にしてください',
  },
  webhookMailSubject: {
    en: 'Webhook endpoint disabled: {url}',
    zh: 'Webhook 端点已停用：{url}',
    ko: '웹훅 엔드포인트 비활성화됨: {url}',
    ja: 'Webhook エンドポイントを無効にしました：{url}',
  },
  webhookMailBody: {
    en: 'Deliveries to your webhook endpoint {url} (merchant {merId}) have failed for 3 days, so the endpoint has been disabled. Fix the receiver, enable the endpoint under Developers → Webhooks and resend the failed events from its delivery log.',
    zh: '发往您的 Webhook 端点 {url}（商户 {merId}）的投递已连续失败 3 天，该端点已被停用。请修复接收方，在“开发者 → Webhooks”中重新启用该端点，并在投递日志中重发失败的事件。',
    ko: '웹훅 엔드포인트 {url}(가맹점 {merId})로의 전송이 3일 동안 실패하여 엔드포인트를 비활성화했습니다. 수신 측을 고친 뒤 개발자 → 웹훅에서 엔드포인트를 활성화하고 전송 기록에서 실패한 이벤트를 다시 보내세요.',
    ja: 'Webhook エンドポイント {url}（加盟店 {merId}）への配信が 3 日間失敗したため、エンドポイントを無効にしました。受信側を修正し、「開発者 → Webhook」でエンドポイントを有効にしてから、配信ログで失敗したイベントを再送してください。',
  },
  webhookTestMessage: {
    en: 'A test event from the merchant portal',
    zh: '来自商户门户的测试事件',
    ko: '가맹점 포털의 테스트 이벤트',
    ja: '加盟店ポータルからのテストイベント',
  },
  // Issue 47 (wt-c2): ending the old secret's overlap; the generic reasons of the delivery log.
  webhookNoPreviousSecret: {
    en: 'This endpoint has no previous secret still signing',
    zh: '该端点没有仍在签名的旧密钥',
    ko: '이 엔드포인트에는 아직 서명에 쓰이는 이전 시크릿이 없습니다',
    ja: 'このエンドポイントには、まだ署名に使われている以前のシークレットはありません',
  },
  webhookReasonAddress: {
    en: 'Not sent: the host name does not resolve to a public internet address',
    zh: '未发送：该主机名未解析到公网地址',
    ko: '전송하지 않음: 호스트 이름이 공용 인터넷 주소로 확인되지 않습니다',
    ja: '送信していません：ホスト名が公開インターネットのアドレスに解決されません',
  },
  webhookReasonHttps: {
    en: 'Not sent: the endpoint URL must use https',
    zh: '未发送：端点 URL 必须使用 https',
    ko: '전송하지 않음: 엔드포인트 URL은 https를 사용해야 합니다',
    ja: '送信していません：エンドポイントの URL は https である必要があります',
  },
  webhookReasonTimeout: {
    en: 'No answer within 10 seconds',
    zh: '10 秒内未收到应答',
    ko: '10초 안에 응답이 없었습니다',
    ja: '10 秒以内に応答がありませんでした',
  },
  webhookReasonTls: {
    en: "The secure connection failed (TLS handshake or the receiver's certificate)",
    zh: '安全连接失败（TLS 握手或接收方证书有误）',
    ko: '보안 연결에 실패했습니다(TLS 핸드셰이크 또는 수신 측 인증서)',
    ja: 'セキュアな接続に失敗しました（TLS ハンドシェイクまたは受信側の証明書）',
  },
  webhookReasonConnection: {
    en: 'No connection to the receiver (refused, reset or another network error)',
    zh: '无法连接到接收方（被拒绝、被重置或其他网络错误）',
    ko: '수신 측에 연결하지 못했습니다(거부, 재설정 또는 기타 네트워크 오류)',
    ja: '受信側に接続できませんでした（拒否・リセット・その他のネットワークエラー）',
  },
} as const;
