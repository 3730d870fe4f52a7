/** Server messages of the reports module (spread into MESSAGES). */
export const REPORT_MESSAGES = {
  reportRangeTooLong: {
    en: 'The selected time range cannot exceed three months',
    zh: '所选时间范围不能超过三个月',
    ko: '선택한 기간은 3개월을 초과할 수 없습니다',
    ja: '選択できる期間は3か月以内です',
  },
  reportRangeRequired: {
    en: 'Please select the {range} date range',
    zh: '请选择{range}日期范围',
    ko: '{range} 기간을 선택하세요',
    ja: '{range}の期間を選択してください',
  },
  reportRangeIncomplete: {
    en: 'Both the start and the end of the {range} date range are needed',
    zh: '{range}日期范围需要同时填写开始和结束日期',
    ko: '{range} 기간의 시작일과 종료일이 모두 필요합니다',
    ja: '{range}の期間は開始日と終了日の両方が必要です',
  },
  reportRangeInverted: {
    en: 'The start of the {range} date range must not be after its end',
    zh: '{range}日期范围的开始日期不能晚于结束日期',
    ko: '{range} 기간의 시작일은 종료일보다 늦을 수 없습니다',
    ja: '{range}の期間の開始日は終了日より後にできません',
  },
  reportExportQueued: {
    en: 'The export has been queued; the file will appear in the file report',
    zh: '导出任务已排队，文件将出现在文件报表中',
    ko: '내보내기가 대기열에 추가되었습니다. 파일은 파일 보고서에 나타납니다',
    ja: 'エクスポートを受け付けました。ファイルはファイルレポートに表示されます',
  },
};
