import { Button, Dropdown } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_LABELS, currentLanguage, switchLanguage, type Language } from '../lib/i18n';
import { loadFeedback, useApp } from '../app/lazy-app';

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
    // antd's messages load with their first use: load them first, so the confirmation is on screen
    // for the whole wait before the reload (on a slow device the load took longer than the wait,
    // and the page reloaded before it was shown). Without them the reload goes ahead all the same.
    await loadFeedback().catch(() => undefined);
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
