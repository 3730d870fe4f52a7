import { useTranslation } from 'react-i18next';
import { App, Select } from 'antd';
import { LANGUAGES, LANGUAGE_LABELS, currentLanguage, switchLanguage, type Language } from '../../lib/i18n';

/** The back office's language selector: the four languages; choosing reloads the page as the portal's does. */
export function OpsLanguageSelect() {
  const { t } = useTranslation('ops');
  const { message } = App.useApp();
  return (
    <Select<Language>
      aria-label={t('language')}
      value={currentLanguage()}
      onChange={(lng) => void switchLanguage(lng, (text) => void message.success(text))}
      options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_LABELS[l] }))}
      style={{ width: 130 }}
    />
  );
}
