/** Server messages of access that expires (issue 28 item 3, decision 048), spread into MESSAGES. */
export const ACCESS_MESSAGES = {
  accessBadDays: {
    en: 'Inactivity limit: a whole number of days from 14 to 90',
    zh: '不活跃期限：须为 14 到 90 之间的整数天',
    ko: '비활성 기한: 14에서 90 사이의 정수 일수여야 합니다',
    ja: '非アクティブ期限：14～90 の整数の日数を指定してください',
  },
  accessEndPast: {
    en: 'The access end date cannot be in the past',
    zh: '访问截止日期不能早于今天',
    ko: '접근 종료일은 과거일 수 없습니다',
    ja: 'アクセス終了日に過去の日付は指定できません',
  },
  reviewNotOpen: {
    en: 'There is no open access review for this merchant: decide on a user first',
    zh: '该商户没有进行中的访问审查：请先对用户做出决定',
    ko: '이 가맹점에 진행 중인 접근 검토가 없습니다. 먼저 사용자에 대해 결정하세요',
    ja: 'この加盟店に進行中のアクセスレビューはありません。先にユーザーについて判断してください',
  },
  reviewIncomplete: {
    en: '{count} {count:user still has|users still have} no decision: confirm or revoke each before completing the review',
    zh: '仍有 {count} 位用户未做决定：请逐一确认或撤销后再完成审查',
    ko: '아직 {count}명의 사용자에 대한 결정이 없습니다. 검토를 완료하기 전에 각각 확인하거나 철회하세요',
    ja: 'まだ {count} 人のユーザーが未判断です。レビューを完了する前に、それぞれ確認または取り消してください',
  },
  inactivityMailSubject: {
    en: 'Your portal access will be disabled on {date}',
    zh: '您的平台账户将于 {date} 停用',
    ko: '포털 접근 권한이 {date}에 비활성화됩니다',
    ja: 'ポータルのアクセスは {date} に無効になります',
  },
  inactivityMailBody: {
    en: 'Hello {user},\n\nYou have not signed in to the merchant portal since {since}. Accounts not used for {days} days are disabled: yours will be on {date} ({zone}).\n\nSign in before then to keep it: {link}\n\nIf you no longer need access, you need not do anything.',
    zh: '{user} 您好：\n\n您自 {since} 起未登录商户平台。连续 {days} 天未使用的账户将被停用：您的账户将于 {date}（{zone}）停用。\n\n请在此之前登录以保留账户：{link}\n\n如不再需要访问，无需任何操作。',
    ko: '{user}님 안녕하세요.\n\n{since} 이후 가맹점 포털에 로그인하지 않으셨습니다. {days}일 동안 사용하지 않은 계정은 비활성화되며, 귀하의 계정은 {date} ({zone})에 비활성화됩니다.\n\n계정을 유지하려면 그 전에 로그인하세요: {link}\n\n더 이상 접근이 필요하지 않으면 아무것도 하지 않으셔도 됩니다.',
    ja: '{user} 様\n\n{since} 以降、加盟店ポータルにサインインされていません。{days} 日間使用されていないアカウントは無効になります。お客様のアカウントは {date}（{zone}）に無効になります。\n\nアカウントを維持するには、それまでにサインインしてください：{link}\n\nアクセスが不要な場合は、何もする必要はありません。',
  },
  inactivityMailNever: { en: 'your account was set up', zh: '账户开通', ko: '계정 개설', ja: 'アカウント開設' },
} as const;
