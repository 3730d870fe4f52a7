/** Server messages of the back office's notices (decision 044), spread into MESSAGES. */
export const OPS_NOTICE_MESSAGES = {
  opsNoticeFileKind: {
    en: '{name}: only PDF, CSV, PNG or JPG files can be attached',
    zh: '{name}：只能附加 PDF、CSV、PNG 或 JPG 文件',
    ko: '{name}: PDF, CSV, PNG, JPG 파일만 첨부할 수 있습니다',
    ja: '{name}：添付できるのは PDF、CSV、PNG、JPG ファイルのみです',
  },
  opsNoticeFileSize: {
    en: '{name}: larger than 20 MiB',
    zh: '{name}：超过 20 MiB',
    ko: '{name}: 20 MiB보다 큽니다',
    ja: '{name}：20 MiB を超えています',
  },
  opsNoticeAtPast: {
    en: 'The publication time must be in the future (or leave it empty to publish now)',
    zh: '发布时间必须晚于当前时间（留空则立即发布）',
    ko: '게시 시각은 미래여야 합니다(비워 두면 바로 게시)',
    ja: '公開日時は未来の時刻にしてください（空欄なら即時公開）',
  },
  opsNoticeAtGap: {
    en: '{at} does not exist in {zone} (the clocks skip it)',
    zh: '{at} 在 {zone} 时区中不存在（时钟跳过了该时间）',
    ko: '{at}은(는) {zone}에 존재하지 않는 시각입니다(시계가 건너뜀)',
    ja: '{at} は {zone} に存在しない時刻です（時計が飛ばします）',
  },
  opsNoticeMerchantUnknown: {
    en: 'No such merchant: {merId}',
    zh: '商户不存在：{merId}',
    ko: '없는 가맹점입니다: {merId}',
    ja: '加盟店が存在しません：{merId}',
  },
  opsNoticeNotGroup: {
    en: '{merId} is not a group',
    zh: '{merId} 不是集团商户',
    ko: '{merId}은(는) 그룹이 아닙니다',
    ja: '{merId} はグループではありません',
  },
  opsNoticeNotScheduled: {
    en: 'Only a notice not yet published can be edited',
    zh: '只能编辑尚未发布的公告',
    ko: '아직 게시되지 않은 공지만 수정할 수 있습니다',
    ja: '編集できるのは未公開のお知らせのみです',
  },
  opsNoticeWithdrawn: {
    en: 'This notice is already withdrawn',
    zh: '该公告已撤回',
    ko: '이 공지는 이미 철회되었습니다',
    ja: 'このお知らせは既に取り下げられています',
  },
} as const;
