/** Server messages of the back office (issue 26), spread into MESSAGES. */
export const OPS_MESSAGES = {
  opsOperatorExists: {
    en: 'An operator with this user name or e-mail already exists',
    zh: '已存在使用该用户名或邮箱的运营人员',
    ko: '이 사용자 이름 또는 이메일을 쓰는 운영자가 이미 있습니다',
    ja: 'このユーザー名またはメールアドレスのオペレーターは既に存在します',
  },
  opsNotOnSelf: {
    en: 'You cannot change your own role or disable yourself',
    zh: '不能修改自己的角色或停用自己',
    ko: '자신의 역할을 바꾸거나 자신을 비활성화할 수 없습니다',
    ja: '自分のロールの変更や自分の無効化はできません',
  },
  opsLastAdministrator: {
    en: 'This is the last active administrator and cannot lose the role or be disabled',
    zh: '这是最后一位有效的管理员，不能取消其角色或停用',
    ko: '마지막 활성 관리자이므로 역할을 없애거나 비활성화할 수 없습니다',
    ja: '最後の有効な管理者のため、ロールの解除や無効化はできません',
  },
  opsActivationExpired: {
    en: 'This activation link has expired or was already used; ask an administrator for a new one',
    zh: '该激活链接已过期或已使用，请联系管理员重新发送',
    ko: '이 활성화 링크는 만료되었거나 이미 사용되었습니다. 관리자에게 새 링크를 요청하세요',
    ja: 'この有効化リンクは期限切れか使用済みです。管理者に新しいリンクを依頼してください',
  },
  opsTotpCodeWrong: {
    en: 'The authenticator code is wrong: check the app was set up with the key shown and its clock is right',
    zh: '验证器代码错误：请确认已用所示密钥设置应用且设备时间正确',
    ko: '인증기 코드가 틀립니다. 표시된 키로 앱을 설정했는지, 기기 시간이 맞는지 확인하세요',
    ja: '認証アプリのコードが正しくありません。表示されたキーで設定したか、端末の時刻が正しいか確認してください',
  },
  mailOpsActivationSubject: {
    en: 'Your back-office operator account',
    zh: '您的后台运营账号',
    ko: '백오피스 운영자 계정',
    ja: 'バックオフィスのオペレーターアカウント',
  },
  mailOpsActivationBody: {
    en: 'Hello {user},\n\nAn operator account of the payment provider\'s back office was created for you (role: {role}). Set your password and your authenticator within 72 hours:\n{link}',
    zh: '{user} 您好：\n\n已为您创建支付服务商后台的运营账号（角色：{role}）。请在 72 小时内设置密码和验证器：\n{link}',
    ko: '{user}님 안녕하세요.\n\n결제 서비스 제공자 백오피스의 운영자 계정이 만들어졌습니다(역할: {role}). 72시간 안에 비밀번호와 인증기를 설정하세요:\n{link}',
    ja: '{user} 様\n\n決済事業者のバックオフィスのオペレーターアカウントが作成されました（ロール：{role}）。72 時間以内にパスワードと認証アプリを設定してください：\n{link}',
  },
  opsMerchantLocked: {
    en: 'This merchant is locked by the payment provider and accepts no transactions',
    zh: '该商户已被支付服务商锁定，不能受理交易',
    ko: '이 가맹점은 결제 서비스 제공자에 의해 잠겨 거래를 받을 수 없습니다',
    ja: 'この加盟店は決済事業者によりロックされており、取引を受け付けません',
  },
  opsLockNoticeTitle: {
    en: 'Your merchant account is locked',
    zh: '您的商户账户已被锁定',
    ko: '가맹점 계정이 잠겼습니다',
    ja: '加盟店アカウントがロックされました',
  },
  opsLockNoticeBody: {
    en: 'The payment provider has locked this merchant: it accepts no transactions until it is unlocked. Reason: {reason}',
    zh: '支付服务商已锁定该商户：解锁前不能受理交易。原因：{reason}',
    ko: '결제 서비스 제공자가 이 가맹점을 잠갔습니다. 잠금이 풀릴 때까지 거래를 받을 수 없습니다. 사유: {reason}',
    ja: '決済事業者がこの加盟店をロックしました。ロック解除まで取引を受け付けません。理由：{reason}',
  },
  opsUnlockNoticeTitle: {
    en: 'Your merchant account is unlocked',
    zh: '您的商户账户已解锁',
    ko: '가맹점 계정의 잠금이 풀렸습니다',
    ja: '加盟店アカウントのロックが解除されました',
  },
  opsFeeNotBackInTime: {
    en: 'A fee schedule can apply from {date} at the earliest: it never reaches back into past or settled days',
    zh: '费率表最早只能从 {date} 起生效，不能追溯到过去或已结算的日期',
    ko: '수수료표는 빨라야 {date}부터 적용할 수 있으며, 지난 날짜나 정산된 날짜로 소급할 수 없습니다',
    ja: '手数料表は早くても {date} から適用でき、過去や精算済みの日にさかのぼることはできません',
  },
};
