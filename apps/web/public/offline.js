/* The offline page's texts (offline.html; the CSP allows no inline script). */
// The texts in the four languages of the portal (the language cookie, else the browser's).
var T = {
  en: ['You are offline', 'The portal needs a connection to show your takings and payments. Nothing is shown from before: check the connection and try again.', 'Try again', 'Merchant Portal — offline'],
  zh: ['您已离线', '商户门户需要网络连接才能显示收款和付款。不会显示以前的数据：请检查网络连接后重试。', '重试', '商户门户 — 离线'],
  ko: ['오프라인 상태입니다', '매출과 결제를 보려면 네트워크 연결이 필요합니다. 이전 데이터는 표시하지 않습니다. 연결을 확인한 후 다시 시도하세요.', '다시 시도', '가맹점 포털 — 오프라인'],
  ja: ['オフラインです', '売上と決済を表示するにはネットワーク接続が必要です。以前のデータは表示しません。接続を確認してからもう一度お試しください。', '再試行', '加盟店ポータル — オフライン'],
};
var m = /(?:^|;\s*)mp_lang=([a-z]{2})/.exec(document.cookie);
var lang = m && T[m[1]] ? m[1] : ((navigator.language || 'en').slice(0, 2).toLowerCase());
if (!T[lang]) lang = 'en';
var t = T[lang];
document.documentElement.lang = lang;
document.getElementById('title').textContent = t[0];
document.getElementById('text').textContent = t[1];
document.getElementById('retry').textContent = t[2];
document.title = t[3];
document.getElementById('retry').addEventListener('click', function () { location.reload(); });
