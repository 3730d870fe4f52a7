/** Server messages of scheduled reports (spread into MESSAGES). */
export const SCHEDULE_MESSAGES = {
  scheduleForeignMerchant: {
    en: 'Merchant {merId} is not one of your merchants',
    zh: '商户 {merId} 不在您的商户范围内',
    ko: '가맹점 {merId}은(는) 귀하의 가맹점이 아닙니다',
    ja: '加盟店 {merId} はお客様の加盟店ではありません',
  },
  scheduleScopeLost: {
    en: "Skipped: the report's merchant is no longer among the owner's merchants",
    zh: '已跳过：报表的商户已不在创建者的商户范围内',
    ko: '건너뜀: 보고서의 가맹점이 더 이상 소유자의 가맹점이 아닙니다',
    ja: 'スキップ：レポートの加盟店は作成者の加盟店ではなくなりました',
  },
  scheduleForeignRecipient: {
    en: '{email} is not an active user of your merchant',
    zh: '{email} 不是您商户的有效用户',
    ko: '{email}은(는) 귀하 가맹점의 활성 사용자가 아닙니다',
    ja: '{email} はお客様の加盟店の有効なユーザーではありません',
  },
  scheduleTooMany: {
    en: 'You can keep at most {max} schedules',
    zh: '最多只能保留 {max} 个定时报表',
    ko: '예약은 최대 {max}개까지 만들 수 있습니다',
    ja: 'スケジュールは最大 {max} 件までです',
  },
  scheduleSendQueued: {
    en: 'The report is being sent',
    zh: '报表正在发送',
    ko: '보고서를 보내는 중입니다',
    ja: 'レポートを送信しています',
  },
  schedulePermissionLost: {
    en: 'Skipped: the owner no longer holds the permission {permission}',
    zh: '已跳过：创建者已不再拥有权限 {permission}',
    ko: '건너뜀: 소유자에게 더 이상 {permission} 권한이 없습니다',
    ja: 'スキップ：作成者は権限 {permission} を持っていません',
  },
  scheduleOwnerInactive: {
    en: "Skipped: the owner's account is no longer active",
    zh: '已跳过：创建者的账号已停用',
    ko: '건너뜀: 소유자 계정이 더 이상 활성 상태가 아닙니다',
    ja: 'スキップ：作成者のアカウントは無効です',
  },
  scheduleNoRecipient: {
    en: 'Not sent: none of the recipients is an active user of the merchant any more',
    zh: '未发送：收件人均已不是商户的有效用户',
    ko: '보내지 않음: 수신자 중 가맹점의 활성 사용자가 없습니다',
    ja: '未送信：受信者はいずれも加盟店の有効なユーザーではありません',
  },
  scheduleMailSubject: {
    en: 'Scheduled report: {name}',
    zh: '定时报表：{name}',
    ko: '예약 보고서: {name}',
    ja: '定期レポート：{name}',
  },
  scheduleMailText: {
    en: 'Attached is your scheduled report "{name}" ({rows} rows), run at {at} ({zone}). It is also in the file report of the portal. Schedules are managed under Reports > Scheduled reports.',
    zh: '附件是您的定时报表“{name}”（{rows} 行），生成时间 {at}（{zone}）。该文件也可在门户的文件报表中找到。定时报表可在“报表 > 定时报表”中管理。',
    ko: '예약 보고서 "{name}"({rows}행)을 첨부합니다. 실행 시각 {at} ({zone}). 포털의 파일 보고서에도 있습니다. 예약은 보고서 > 예약 보고서에서 관리합니다.',
    ja: '定期レポート「{name}」（{rows} 行）を添付します。実行日時 {at}（{zone}）。ポータルのファイルレポートにもあります。スケジュールは「レポート > 定期レポート」で管理できます。',
  },
};
