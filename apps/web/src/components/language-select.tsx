import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_LABELS, currentLanguage, switchLanguage, type Language } from '../lib/i18n';
import { useApp } from '../app/lazy-app';

/**
 * Language selector (spec §2): zh, en, ko, ja. Choosing saves the cookie, says
 * 'Switch Language Success' in the new language and reloads the page.
 */
export function LanguageSelect({ variant = 'text' }: { variant?: 'text' | 'outlined' }) {
  const { t } = useTranslation();
  const { message } = useApp();
  const lng = currentLanguage();

  async function choose(next: Language) {
    if (next === lng) return;
    await switchLanguage(next, (content) => message.success({ content, duration: 2 }));
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
