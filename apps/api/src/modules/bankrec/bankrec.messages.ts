import type { Language } from '@portal/contract';

type Msg = Record<Language, string>;

/** Bank statements and matching (issue 49 §2): server texts in the four languages. */
export const BANKREC_MESSAGES = {
  bankFileTooLarge: { en: 'The statement file is larger than {max}', zh: '对账单文件超过 {max}', ko: '명세서 파일이 {max}보다 큽니다', ja: '明細ファイルが {max} を超えています' },
  bankFileEncoding: {
    en: 'The statement file is not UTF-8 ({encoding}): export it from the bank again in UTF-8',
    zh: '对账单文件不是 UTF-8 编码（{encoding}）：请从银行重新导出 UTF-8 格式',
    ko: '명세서 파일이 UTF-8이 아닙니다({encoding}). 은행에서 UTF-8로 다시 내보내세요',
    ja: '明細ファイルが UTF-8 ではありません（{encoding}）。銀行から UTF-8 で再度エクスポートしてください',
  },
  bankFileUnknownFormat: {
    en: 'Not a camt.053 or MT940 statement; for a CSV file, save its column mapping first',
    zh: '不是 camt.053 或 MT940 对账单；CSV 文件请先保存列映射',
    ko: 'camt.053 또는 MT940 명세서가 아닙니다. CSV 파일은 먼저 열 매핑을 저장하세요',
    ja: 'camt.053 または MT940 の明細ではありません。CSV ファイルは先に列の対応付けを保存してください',
  },
  bankXmlMalformed: {
    en: 'The XML is malformed at line {line}: {reason}',
    zh: 'XML 格式错误（第 {line} 行）：{reason}',
    ko: 'XML 형식 오류(줄 {line}): {reason}',
    ja: 'XML の形式が不正です（{line} 行目）：{reason}',
  },
  bankXmlDoctype: {
    en: 'The XML declares a DOCTYPE (line {line}): refused, a bank statement never carries one (entity declarations are not read)',
    zh: 'XML 含有 DOCTYPE 声明（第 {line} 行）：已拒绝，银行对账单不含此声明（不读取实体声明）',
    ko: 'XML에 DOCTYPE 선언이 있습니다(줄 {line}). 은행 명세서에는 없으므로 거부되었습니다(엔터티 선언은 읽지 않음)',
    ja: 'XML に DOCTYPE 宣言があります（{line} 行目）。銀行明細には含まれないため拒否しました（実体宣言は読みません）',
  },
  bankCamtVersion: {
    en: 'Unknown statement version {version}: camt.053.001.02 to .13 are read',
    zh: '未知的对账单版本 {version}：支持 camt.053.001.02 至 .13',
    ko: '알 수 없는 명세서 버전 {version}: camt.053.001.02 ~ .13을 읽습니다',
    ja: '不明な明細バージョン {version}：camt.053.001.02～.13 に対応しています',
  },
  bankElementMissing: { en: '{at}: {element} is missing', zh: '{at}：缺少 {element}', ko: '{at}: {element}이(가) 없습니다', ja: '{at}：{element} がありません' },
  bankElementInvalid: { en: '{at}: "{value}" is not valid', zh: '{at}：“{value}”无效', ko: '{at}: "{value}"은(는) 올바르지 않습니다', ja: '{at}：「{value}」は無効です' },
  bankCurrencyDiffers: {
    en: '{at}: currency {currency} differs from the account currency {account}',
    zh: '{at}：币种 {currency} 与账户币种 {account} 不同',
    ko: '{at}: 통화 {currency}이(가) 계좌 통화 {account}와 다릅니다',
    ja: '{at}：通貨 {currency} が口座通貨 {account} と異なります',
  },
  bankBalanceMismatch: {
    en: '{at}: opening balance {opening} + entries {entries} = {expected} {currency}, but the closing balance is {closing}',
    zh: '{at}：期初余额 {opening} + 明细 {entries} = {expected} {currency}，但期末余额为 {closing}',
    ko: '{at}: 기초 잔액 {opening} + 거래 {entries} = {expected} {currency}이지만 기말 잔액은 {closing}입니다',
    ja: '{at}：期首残高 {opening} + 明細 {entries} = {expected} {currency} ですが、期末残高は {closing} です',
  },
  bankBalanceMissing: { en: '{at}: the {balance} balance is missing', zh: '{at}：缺少 {balance} 余额', ko: '{at}: {balance} 잔액이 없습니다', ja: '{at}：{balance} 残高がありません' },
  bankMt940Line: {
    en: 'Line {line}: tag :{tag}: cannot be read',
    zh: '第 {line} 行：无法读取标签 :{tag}:',
    ko: '줄 {line}: 태그 :{tag}:을(를) 읽을 수 없습니다',
    ja: '{line} 行目：タグ :{tag}: を読み取れません',
  },
  bankMt940TagMissing: {
    en: 'Statement at line {line}: {tag} is missing',
    zh: '第 {line} 行的对账单：缺少 {tag}',
    ko: '줄 {line}의 명세서: {tag}이(가) 없습니다',
    ja: '{line} 行目の明細：{tag} がありません',
  },
  bankTooManyEntries: {
    en: 'A statement file may carry at most {max} entries',
    zh: '一个对账单文件最多 {max} 条明细',
    ko: '명세서 파일에는 최대 {max}건의 거래만 있을 수 있습니다',
    ja: '明細ファイルの明細は最大 {max} 件です',
  },
  bankNoStatement: { en: 'The file carries no statement', zh: '文件中没有对账单', ko: '파일에 명세서가 없습니다', ja: 'ファイルに明細がありません' },
  bankCsvLine: {
    en: 'CSV line {line}, {column}: "{value}" cannot be read',
    zh: 'CSV 第 {line} 行，{column}：无法读取“{value}”',
    ko: 'CSV 줄 {line}, {column}: "{value}"을(를) 읽을 수 없습니다',
    ja: 'CSV {line} 行目、{column}：「{value}」を読み取れません',
  },
  bankCsvColumn: {
    en: 'CSV: column "{column}" is not in the header row',
    zh: 'CSV：标题行中没有列“{column}”',
    ko: 'CSV: 머리글 행에 "{column}" 열이 없습니다',
    ja: 'CSV：見出し行に列「{column}」がありません',
  },
  bankStatementChanged: {
    en: 'Statement {ref} of account {account} was imported before with other content: refused',
    zh: '账户 {account} 的对账单 {ref} 已以不同内容导入过：已拒绝',
    ko: '계좌 {account}의 명세서 {ref}이(가) 다른 내용으로 이미 가져와졌습니다. 거부되었습니다',
    ja: '口座 {account} の明細 {ref} は別の内容で取り込み済みです。拒否しました',
  },
  bankUploadMissing: { en: 'Choose a statement file', zh: '请选择对账单文件', ko: '명세서 파일을 선택하세요', ja: '明細ファイルを選択してください' },
  bankMatchNotProposed: {
    en: 'This match is not a proposal (already confirmed?)',
    zh: '该匹配不是待确认的建议（已确认？）',
    ko: '이 매칭은 제안 상태가 아닙니다(이미 확인됨?)',
    ja: 'この照合は提案ではありません（確認済み？）',
  },
  bankMatchTaken: {
    en: 'A credit or transfer chosen is already matched, or not a credit / transfer of one merchant in one currency',
    zh: '所选入账或转账已被匹配，或不属于同一商户同一币种',
    ko: '선택한 입금 또는 이체가 이미 매칭되었거나 한 가맹점의 같은 통화가 아닙니다',
    ja: '選択した入金または送金は照合済みか、同じ加盟店・同じ通貨のものではありません',
  },
  bankMatchCreditExceeds: {
    en: 'The credits ({credit}) exceed the transfers ({transfer}): not a match',
    zh: '入账（{credit}）超过转账（{transfer}）：不能匹配',
    ko: '입금({credit})이 이체({transfer})보다 큽니다. 매칭할 수 없습니다',
    ja: '入金（{credit}）が送金（{transfer}）を超えています。照合できません',
  },
  bankWhyAmountOff: { en: 'Amount off by {diff}', zh: '金额相差 {diff}', ko: '금액 차이 {diff}', ja: '金額の差 {diff}' },
  bankWhyFeeTooLarge: {
    en: 'Short by {diff}: more than a bank fee (at most {max})',
    zh: '少 {diff}：超过银行手续费上限（最多 {max}）',
    ko: '{diff} 부족: 은행 수수료 한도(최대 {max})를 넘습니다',
    ja: '{diff} 不足：銀行手数料の上限（最大 {max}）を超えています',
  },
  bankWhyDateOutside: {
    en: 'Date outside the window by {days} days',
    zh: '日期超出匹配窗口 {days} 天',
    ko: '날짜가 범위를 {days}일 벗어났습니다',
    ja: '日付が照合期間から {days} 日外れています',
  },
  bankWhyReferenceDiffers: {
    en: 'Reference differs: the bank names {reference}',
    zh: '参考号不同：银行注明 {reference}',
    ko: '참조가 다릅니다: 은행 표기 {reference}',
    ja: '参照が異なります：銀行の記載は {reference}',
  },
  bankWhyCurrencyDiffers: { en: 'Currency differs ({currency})', zh: '币种不同（{currency}）', ko: '통화가 다릅니다({currency})', ja: '通貨が異なります（{currency}）' },
} satisfies Record<string, Msg>;
