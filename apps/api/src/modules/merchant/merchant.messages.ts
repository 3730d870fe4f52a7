/** Server messages of the merchant module (spread into MESSAGES). */
export const MERCHANT_MESSAGES = {
  bankRequestPending: {
    en: 'A bank account change request is already waiting for approval',
    zh: '已有一个银行账户变更申请正在等待审批',
    ko: '이미 승인 대기 중인 은행 계좌 변경 요청이 있습니다',
    ja: '承認待ちの銀行口座変更申請がすでにあります',
  },
  bankRequestAwaitsApproval: {
    en: "Your request waits for a second user's approval in your team; it goes to the provider once approved",
    zh: '申请需团队中另一位用户审批，审批通过后才会提交给服务商',
    ko: '요청이 팀 내 다른 사용자의 승인을 기다립니다. 승인되면 제공사로 전달됩니다',
    ja: '申請はチーム内の別のユーザーの承認待ちです。承認されるとプロバイダーに送信されます',
  },
  bankRequestSubmitted: {
    en: 'Your request was submitted and is pending approval',
    zh: '申请已提交，等待审批',
    ko: '요청이 제출되어 승인 대기 중입니다',
    ja: '申請を送信しました。承認待ちです',
  },
  bankDocMissing: {
    en: 'Please attach a supporting document (PDF, PNG or JPG, at most 5 MB)',
    zh: '请上传证明文件（PDF、PNG 或 JPG，最大 5 MB）',
    ko: '증빙 서류를 첨부하세요(PDF, PNG 또는 JPG, 최대 5MB)',
    ja: '証明書類を添付してください（PDF・PNG・JPG、最大 5 MB）',
  },
  bankDocTooLarge: {
    en: 'The size of uploaded file attachments cannot exceed 5M',
    zh: '上传的附件大小不能超过 5M',
    ko: '업로드한 첨부 파일 크기는 5M를 초과할 수 없습니다',
    ja: 'アップロードする添付ファイルは 5M を超えられません',
  },
  bankField: {
    en: 'Please check the field: {field}',
    zh: '请检查字段：{field}',
    ko: '다음 항목을 확인하세요: {field}',
    ja: '次の項目を確認してください：{field}',
  },
} as const;
