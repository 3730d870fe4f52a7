/** Server messages of the API keys and the merchant REST API /v1 (spread into MESSAGES). */
export const APIKEY_MESSAGES = {
  apiKeyMerchantOutOfScope: {
    en: 'A key may act only for merchants you can see: {merId}',
    zh: '密钥只能用于您可查看的商户：{merId}',
    ko: '키는 조회 가능한 가맹점에만 사용할 수 있습니다: {merId}',
    ja: 'キーは閲覧できる加盟店にのみ使えます：{merId}',
  },
  apiKeyPermissionNotHeld: {
    en: 'A key may carry only permissions you hold yourself: {perm}',
    zh: '密钥只能包含您自己拥有的权限：{perm}',
    ko: '키에는 본인이 가진 권한만 부여할 수 있습니다: {perm}',
    ja: 'キーには自分が持つ権限しか付与できません：{perm}',
  },
  apiKeyExpiryPast: {
    en: 'The expiry date must be today or later',
    zh: '到期日期必须是今天或之后',
    ko: '만료일은 오늘 이후여야 합니다',
    ja: '有効期限は今日以降にしてください',
  },
  apiKeyMissing: {
    en: 'Send the API key as "Authorization: Bearer <key>"',
    zh: '请以 "Authorization: Bearer <key>" 发送 API 密钥',
    ko: 'API 키를 "Authorization: Bearer <key>" 로 보내세요',
    ja: 'API キーを「Authorization: Bearer <key>」で送信してください',
  },
  apiKeyInvalid: { en: 'The API key is not valid', zh: 'API 密钥无效', ko: 'API 키가 유효하지 않습니다', ja: 'API キーが無効です' },
  apiKeyRevoked: { en: 'The API key has been revoked', zh: 'API 密钥已被吊销', ko: 'API 키가 폐기되었습니다', ja: 'API キーは失効しています' },
  apiKeyExpired: { en: 'The API key has expired', zh: 'API 密钥已过期', ko: 'API 키가 만료되었습니다', ja: 'API キーの有効期限が切れています' },
  apiKeyIpRefused: {
    en: 'Requests from {ip} are not allowed for this API key',
    zh: '此 API 密钥不允许来自 {ip} 的请求',
    ko: '이 API 키는 {ip} 에서의 요청을 허용하지 않습니다',
    ja: 'この API キーでは {ip} からのリクエストは許可されていません',
  },
  v1Forbidden: {
    en: 'This API key lacks the permission {perm}',
    zh: '此 API 密钥缺少权限 {perm}',
    ko: '이 API 키에는 {perm} 권한이 없습니다',
    ja: 'この API キーには権限 {perm} がありません',
  },
  v1Invalid: { en: 'Invalid parameter {param}: {detail}', zh: '参数 {param} 无效：{detail}', ko: '잘못된 매개변수 {param}: {detail}', ja: 'パラメーター {param} が不正です：{detail}' },
  v1CursorInvalid: {
    en: 'The cursor is not one this list gave out',
    zh: '游标不是此列表返回的',
    ko: '이 목록이 제공한 커서가 아닙니다',
    ja: 'このカーソルはこの一覧が返したものではありません',
  },
  v1IdempotencyMissing: {
    en: 'Send an Idempotency-Key header (8–64 letters, digits, "-" or "_")',
    zh: '请发送 Idempotency-Key 头（8–64 个字母、数字、"-" 或 "_"）',
    ko: 'Idempotency-Key 헤더를 보내세요 (8–64자의 영문, 숫자, "-" 또는 "_")',
    ja: 'Idempotency-Key ヘッダーを送信してください（英数字・「-」「_」で 8〜64 文字）',
  },
  v1IdempotencyReused: {
    en: 'This Idempotency-Key was already used with another request',
    zh: '此 Idempotency-Key 已用于另一个请求',
    ko: '이 Idempotency-Key 는 다른 요청에 이미 사용되었습니다',
    ja: 'この Idempotency-Key は別のリクエストで使用済みです',
  },
  // Issue 50: a malformed key told apart from a missing one; a key whose first request still runs.
  v1IdempotencyInvalid: {
    en: 'The Idempotency-Key header is malformed: use 8–64 letters, digits, "-" or "_"',
    zh: 'Idempotency-Key 头格式不正确：请使用 8–64 个字母、数字、"-" 或 "_"',
    ko: 'Idempotency-Key 헤더 형식이 잘못되었습니다: 8–64자의 영문, 숫자, "-" 또는 "_"를 사용하세요',
    ja: 'Idempotency-Key ヘッダーの形式が不正です：英数字・「-」「_」で 8〜64 文字にしてください',
  },
  v1IdempotencyInUse: {
    en: 'A request with this Idempotency-Key is still being processed; try again shortly',
    zh: '使用此 Idempotency-Key 的请求仍在处理中，请稍后重试',
    ko: '이 Idempotency-Key 를 사용한 요청이 아직 처리 중입니다. 잠시 후 다시 시도하세요',
    ja: 'この Idempotency-Key のリクエストはまだ処理中です。しばらくしてから再試行してください',
  },
  v1VersionInvalid: {
    en: 'Unknown Portal-Version {version}: use one of {versions}',
    zh: '未知的 Portal-Version {version}：请使用 {versions} 之一',
    ko: '알 수 없는 Portal-Version {version}: {versions} 중 하나를 사용하세요',
    ja: '不明な Portal-Version {version}：{versions} のいずれかを使用してください',
  },
  v1ExpandInvalid: {
    en: 'This object cannot expand {expand}: it can expand {allowed}',
    zh: '此对象无法展开 {expand}：可展开 {allowed}',
    ko: '이 객체는 {expand} 을(를) 펼칠 수 없습니다: 펼칠 수 있는 항목은 {allowed}',
    ja: 'このオブジェクトは {expand} を展開できません：展開できるのは {allowed} です',
  },
  v1RouteNotFound: { en: 'No such API operation', zh: '没有此 API 操作', ko: '해당 API 작업이 없습니다', ja: 'その API 操作はありません' },
} as const;
