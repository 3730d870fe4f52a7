/** Server messages of the back office's runs screen (issue 26, decision 045), spread into MESSAGES. */
export const OPS_RUNS_MESSAGES = {
  opsRunBusy: {
    en: 'Settlement of {date} is running now; wait for it to finish',
    zh: '{date} 的结算正在运行，请等待其完成',
    ko: '{date} 정산이 지금 실행 중입니다. 끝날 때까지 기다리세요',
    ja: '{date} の精算は実行中です。終わるまでお待ちください',
  },
  opsJobNotFailed: {
    en: 'Only a failed job can be retried; this one is {status}',
    zh: '只能重试失败的任务；此任务状态为 {status}',
    ko: '실패한 작업만 다시 시도할 수 있습니다. 이 작업은 {status} 상태입니다',
    ja: '再試行できるのは失敗したジョブだけです。このジョブは {status} です',
  },
} as const;
