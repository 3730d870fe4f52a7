/** Server messages of SCIM provisioning and the sign-in IP allow-list (issue 51; spread into MESSAGES). */
export const SCIM_MESSAGES = {
  scimTokenMissing: {
    en: 'Send the SCIM token as Authorization: Bearer scim_…',
    zh: '请以 Authorization: Bearer scim_… 发送 SCIM 令牌',
    ko: 'SCIM 토큰을 Authorization: Bearer scim_… 형식으로 보내세요',
    ja: 'SCIM トークンを Authorization: Bearer scim_… で送ってください',
  },
  scimTokenInvalid: {
    en: 'The SCIM token is unknown or has been revoked',
    zh: 'SCIM 令牌无效或已被吊销',
    ko: 'SCIM 토큰을 알 수 없거나 폐기되었습니다',
    ja: 'SCIM トークンが不明か、失効しています',
  },
  scimNotFound: {
    en: 'No such resource',
    zh: '资源不存在',
    ko: '해당 리소스가 없습니다',
    ja: 'そのリソースはありません',
  },
  scimBadJson: {
    en: 'The request body is not valid JSON',
    zh: '请求正文不是有效的 JSON',
    ko: '요청 본문이 올바른 JSON이 아닙니다',
    ja: 'リクエスト本文が正しい JSON ではありません',
  },
  scimInvalidValue: {
    en: 'Invalid value of {field}',
    zh: '{field} 的值无效',
    ko: '{field} 값이 올바르지 않습니다',
    ja: '{field} の値が正しくありません',
  },
  scimInvalidFilter: {
    en: 'Unsupported filter: use attribute eq "value" (userName, externalId, id, emails.value; displayName for groups)',
    zh: '不支持的筛选条件：请使用 属性 eq "值"（userName、externalId、id、emails.value；组用 displayName）',
    ko: '지원하지 않는 필터입니다: 속성 eq "값" 형식을 사용하세요 (userName, externalId, id, emails.value, 그룹은 displayName)',
    ja: '未対応のフィルターです：属性 eq "値" の形で指定してください（userName、externalId、id、emails.value、グループは displayName）',
  },
  scimInvalidPath: {
    en: 'Unsupported PATCH path: {path}',
    zh: '不支持的 PATCH 路径：{path}',
    ko: '지원하지 않는 PATCH 경로: {path}',
    ja: '未対応の PATCH パス：{path}',
  },
  scimUserNameTaken: {
    en: 'The user name or e-mail address is already in use',
    zh: '用户名或邮箱已被使用',
    ko: '사용자 이름 또는 이메일이 이미 사용 중입니다',
    ja: 'ユーザー名またはメールアドレスは既に使われています',
  },
  scimExternalIdTaken: {
    en: 'Another resource already has this externalId or name',
    zh: '已有其他资源使用此 externalId 或名称',
    ko: '다른 리소스가 이미 이 externalId 또는 이름을 사용 중입니다',
    ja: '別のリソースが既にこの externalId または名前を使っています',
  },
  scimVersionMismatch: {
    en: 'The resource has changed since the version in If-Match',
    zh: '资源在 If-Match 所示版本之后已被修改',
    ko: 'If-Match의 버전 이후 리소스가 변경되었습니다',
    ja: 'If-Match の版の後にリソースが変更されています',
  },
  scimEmailRequired: {
    en: 'An e-mail address is required (emails, or a userName that is an e-mail address)',
    zh: '需要邮箱地址（emails，或为邮箱格式的 userName）',
    ko: '이메일 주소가 필요합니다 (emails 또는 이메일 형식의 userName)',
    ja: 'メールアドレスが必要です（emails、またはメール形式の userName）',
  },
  scimMemberUnknown: {
    en: 'No such user to add to the group: {id}',
    zh: '要加入组的用户不存在：{id}',
    ko: '그룹에 추가할 사용자가 없습니다: {id}',
    ja: 'グループに追加するユーザーがいません：{id}',
  },
  scimTooMany: {
    en: 'Too many requests: try again later',
    zh: '请求过多，请稍后再试',
    ko: '요청이 너무 많습니다. 잠시 후 다시 시도하세요',
    ja: 'リクエストが多すぎます。しばらくしてからお試しください',
  },
  scimMappingTaken: {
    en: 'This group already has a role',
    zh: '该组已映射角色',
    ko: '이 그룹에는 이미 역할이 있습니다',
    ja: 'このグループには既にロールが割り当てられています',
  },
  signInIpRefused: {
    en: 'Sign-in from this network ({ip}) is not allowed for your merchant. Ask your administrator, or sign in from an allowed network.',
    zh: '您的商户不允许从此网络（{ip}）登录。请联系管理员，或在允许的网络中登录。',
    ko: '가맹점 정책상 이 네트워크({ip})에서는 로그인할 수 없습니다. 관리자에게 문의하거나 허용된 네트워크에서 로그인하세요.',
    ja: 'ご利用の加盟店では、このネットワーク（{ip}）からのサインインは許可されていません。管理者に問い合わせるか、許可されたネットワークからサインインしてください。',
  },
  signInIpLockout: {
    en: 'Your own address ({ip}) is not in the list: saving it would lock you out. Add your address or range first.',
    zh: '您当前的地址（{ip}）不在列表中，保存后您将无法登录。请先加入您的地址或网段。',
    ko: '현재 주소({ip})가 목록에 없어 저장하면 로그인할 수 없게 됩니다. 먼저 주소나 대역을 추가하세요.',
    ja: '現在のアドレス（{ip}）が一覧にないため、保存するとサインインできなくなります。先にご自身のアドレスか範囲を追加してください。',
  },
} as const;
