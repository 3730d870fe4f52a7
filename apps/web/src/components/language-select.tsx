import { App, Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_LABELS, currentLanguage, i18n, saveLanguage, type Language } from '../lib/i18n';

const RELOAD_AFTER_MS = 900;

/**
 * Language selector (spec §2): zh, en, ko, ja. Choosing saves the cookie, says
 * 'Switch Language Success' in the new language and reloads the page.
 */
export function LanguageSelect({ variant = 'text' }: { variant?: 'text' | 'outlined' }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lng = currentLanguage();

  async function choose(next: Language) {
    if (next === lng) return;
    saveLanguage(next);
    await i18n.loadLanguages(next).catch(() => undefined);
    message.success({ content: i18n.getFixedT(next, 'common')('switchLanguageSuccess'), duration: 2 });
    setTimeout(() => location.reload(), RELOAD_AFTER_MS);
  }

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [lng],
        items: LANGUAGES.map((l) => ({ key: l, label: <span lang={l}>{LANGUAGE_LABELS[l]}</span> })),
        onClick: ({ key }) => void choose(key as Language),
      }}
    >
      <Button type={variant === 'text' ? 'text' : 'default'} icon={<GlobalOutlined />} aria-label={`${t('language')}: ${LANGUAGE_LABELS[lng]}`} data-testid="language-select">
        {LANGUAGE_LABELS[lng]}
      </Button>
    </Dropdown>
  );
}
