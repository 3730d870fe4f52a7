import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import type { Language } from './i18n';

/** antd and dayjs locales follow the UI language (loaded on demand, one small chunk each). */
const antdLocales: Record<Language, () => Promise<{ default: Locale }>> = {
  zh: () => import('antd/es/locale/zh_CN'),
  en: () => import('antd/es/locale/en_US'),
  ko: () => import('antd/es/locale/ko_KR'),
  ja: () => import('antd/es/locale/ja_JP'),
};

const dayjsLocales: Record<Language, [string, () => Promise<unknown>]> = {
  zh: ['zh-cn', () => import('dayjs/locale/zh-cn')],
  en: ['en', () => Promise.resolve()],
  ko: ['ko', () => import('dayjs/locale/ko')],
  ja: ['ja', () => import('dayjs/locale/ja')],
};

export async function loadLocales(lng: Language): Promise<Locale> {
  const [name, loadDayjs] = dayjsLocales[lng];
  const [antd] = await Promise.all([antdLocales[lng](), loadDayjs()]);
  dayjs.locale(name);
  return antd.default;
}
