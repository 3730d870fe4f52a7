/** Server messages of the team module (users, roles, audit viewer), spread into MESSAGES. */
export const TEAM_MESSAGES = {
  userBeyondScope: {
    en: 'This user also has access to merchants outside yours: only an administrator of all of them can change it',
    zh: '该用户还可访问您范围以外的商户：只有能管理这些商户的管理员才能修改',
    ko: '이 사용자는 귀하의 범위 밖 가맹점에도 접근할 수 있습니다. 해당 가맹점 모두의 관리자만 변경할 수 있습니다',
    ja: 'このユーザーはお客様の範囲外の加盟店にもアクセスできます。それらすべての管理者のみが変更できます',
  },
  userExists: {
    en: 'User name, email or mobile number already exists',
    zh: '用户名、邮箱或手机号已存在',
    ko: '사용자 이름, 이메일 또는 휴대폰 번호가 이미 존재합니다',
    ja: 'ユーザー名、メールアドレスまたは携帯電話番号は既に存在します',
  },
  grantNotHeld: {
    en: 'You can only grant permissions you hold yourself',
    zh: '您只能授予自己拥有的权限',
    ko: '본인이 가진 권한만 부여할 수 있습니다',
    ja: '自分が持っている権限のみ付与できます',
  },
  merchantNotInScope: {
    en: 'You can only give access to your own merchant or its sub-merchants',
    zh: '只能授予您自己的商户或其子商户的访问权限',
    ko: '본인의 가맹점 또는 그 하위 가맹점에만 접근 권한을 줄 수 있습니다',
    ja: '自分の加盟店またはその子加盟店へのアクセスのみ付与できます',
  },
  mainUserOnly: {
    en: 'Only a main user of the merchant can manage users',
    zh: '只有商户主用户可以管理用户',
    ko: '가맹점의 주 사용자만 사용자를 관리할 수 있습니다',
    ja: 'ユーザーを管理できるのは加盟店のメインユーザーのみです',
  },
  notOnSelf: {
    en: 'You cannot disable or remove yourself',
    zh: '不能停用或删除自己',
    ko: '자기 자신을 비활성화하거나 삭제할 수 없습니다',
    ja: '自分自身を無効化または削除することはできません',
  },
  lastAdmin: {
    en: 'This is the last administrator of the merchant and cannot be disabled or removed',
    zh: '这是该商户的最后一位管理员，不能停用或删除',
    ko: '가맹점의 마지막 관리자이므로 비활성화하거나 삭제할 수 없습니다',
    ja: '加盟店の最後の管理者のため、無効化または削除できません',
  },
  userDisabledNoReset: {
    en: 'The user is disabled: enable it before resetting its password',
    zh: '该用户已停用：请先启用再重置密码',
    ko: '비활성화된 사용자입니다. 비밀번호를 재설정하기 전에 활성화하세요',
    ja: 'このユーザーは無効です。パスワードをリセットする前に有効にしてください',
  },
  noFreeUserName: {
    en: 'No free user name could be proposed, please type one',
    zh: '无法生成可用的用户名，请手动输入',
    ko: '사용 가능한 사용자 이름을 제안할 수 없습니다. 직접 입력하세요',
    ja: '使用可能なユーザー名を提案できませんでした。入力してください',
  },
  roleNameTaken: {
    en: 'A role of this name already exists',
    zh: '已存在同名角色',
    ko: '같은 이름의 역할이 이미 있습니다',
    ja: '同じ名前のロールが既に存在します',
  },
  roleInUse: {
    en: 'This role is held by {count} user(s): give them another role before removing it',
    zh: '该角色仍有 {count} 位用户使用：请先为他们更换角色再删除',
    ko: '이 역할을 {count}명의 사용자가 사용 중입니다. 삭제하기 전에 다른 역할을 지정하세요',
    ja: 'このロールは {count} 人のユーザーが使用中です。削除する前に別のロールを割り当ててください',
  },
  roleBeyondScope: {
    en: 'A user holding this role also has access to merchants outside yours: only an administrator of all of them can change it',
    zh: '持有该角色的用户还可访问您范围以外的商户：只有能管理这些商户的管理员才能修改',
    ko: '이 역할을 가진 사용자가 귀하의 범위 밖 가맹점에도 접근할 수 있습니다. 해당 가맹점 모두의 관리자만 변경할 수 있습니다',
    ja: 'このロールを持つユーザーはお客様の範囲外の加盟店にもアクセスできます。それらすべての管理者のみが変更できます',
  },
  createUserError: { en: 'Create user error', zh: '创建用户失败', ko: '사용자 생성 오류', ja: 'ユーザー作成エラー' },
} as const;
