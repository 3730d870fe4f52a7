import type { Language } from '@portal/contract';

type Msg = Record<Language, string>;

/** Stores, pay in store and cashiers: server texts in the four languages. */
export const STORE_MESSAGES = {
  /** Spec §6 / §9, verbatim in English. */
  pisNotEnabled: {
    en: 'You have not enabled this function, please contact sales',
    zh: '您尚未开通此功能，请联系销售',
    ko: '이 기능이 활성화되지 않았습니다. 영업 담당자에게 문의하세요',
    ja: 'この機能は有効になっていません。営業担当にお問い合わせください',
  },
  pisStoreRequired: { en: 'Please choose a store', zh: '请选择门店', ko: '매장을 선택하세요', ja: '店舗を選択してください' },
  pisControlChars: {
    en: 'Control characters are not allowed',
    zh: '不允许包含控制字符',
    ko: '제어 문자는 사용할 수 없습니다',
    ja: '制御文字は使用できません',
  },
  pisInStoreGoods: { en: 'In-store payment', zh: '门店付款', ko: '매장 결제', ja: '店頭でのお支払い' },
  payStoreUnknown: {
    en: 'Store {storeId} is not a store of merchant {merId}',
    zh: '门店 {storeId} 不属于商户 {merId}',
    ko: '매장 {storeId}은(는) 가맹점 {merId}의 매장이 아닙니다',
    ja: '店舗 {storeId} は加盟店 {merId} の店舗ではありません',
  },
  payStoreIdRequired: {
    en: 'A store name needs its store id (stores come from the store table)',
    zh: '门店名称必须附带门店编号（门店来自门店表）',
    ko: '매장 이름에는 매장 ID가 필요합니다 (매장은 매장 테이블에서 가져옵니다)',
    ja: '店舗名には店舗 ID が必要です（店舗は店舗テーブルから取得されます）',
  },
  cashierWechatOff: {
    en: 'WeChat is not configured: cashiers cannot be bound. Please contact sales',
    zh: '未配置微信，无法绑定收银员，请联系销售',
    ko: 'WeChat이 설정되지 않아 계산원을 연결할 수 없습니다. 영업 담당자에게 문의하세요',
    ja: 'WeChat が設定されていないため、レジ担当者を紐付けできません。営業担当にお問い合わせください',
  },
  cashierSignIn: { en: 'Please sign in with WeChat', zh: '请使用微信登录', ko: 'WeChat으로 로그인하세요', ja: 'WeChat でサインインしてください' },
} satisfies Record<string, Msg>;
