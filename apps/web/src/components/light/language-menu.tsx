import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { LANGUAGES, LANGUAGE_LABELS, currentLanguage, switchLanguage, type Language } from '../../lib/i18n';
import { toast } from '../../lib/light-ui';
import { SvgIcon } from './svg-icon';
import './language-menu.css';

/**
 * The language selector of the sign-in page (spec §2), without antd: a menu button with the
 * four languages. Choosing saves the cookie, says 'Switch Language Success' in the new language and
 * reloads the page — as the shell's selector does. Keyboard: Enter/Space/↓ open it on the current
 * language, ↑/↓/Home/End move, Enter picks, Escape or Tab closes.
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const lng = currentLanguage();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[LANGUAGES.indexOf(lng)]?.focus();
    const outside = (e: PointerEvent) => {
      const root = button.current?.parentElement;
      if (root && !root.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, lng]);

  async function choose(next: Language) {
    setOpen(false);
    button.current?.focus();
    if (next === lng) return;
    await switchLanguage(next, (text) => toast('success', text));
  }

  function onMenuKey(e: KeyboardEvent) {
    const at = items.current.findIndex((el) => el === document.activeElement);
    const move = (i: number) => items.current[(i + LANGUAGES.length) % LANGUAGES.length]?.focus();
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(LANGUAGES.length - 1);
    else if (e.key === 'Escape') {
      setOpen(false);
      button.current?.focus();
    } else if (e.key === 'Tab') setOpen(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
  }

  return (
    <div className="light-lang">
      <button
        ref={button}
        type="button"
        className="light-lang__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`${t('language')}: ${LANGUAGE_LABELS[lng]}`}
        data-testid="language-select"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <SvgIcon icon={GlobalOutlined} />
        <span>{LANGUAGE_LABELS[lng]}</span>
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label={t('language')} className="light-lang__menu" onKeyDown={onMenuKey}>
          {LANGUAGES.map((l, i) => (
            <button
              key={l}
              ref={(el) => {
                items.current[i] = el;
              }}
              type="button"
              role="menuitem"
              lang={l}
              tabIndex={l === lng ? 0 : -1}
              aria-current={l === lng ? 'true' : undefined}
              className={`light-lang__item${l === lng ? ' is-current' : ''}`}
              onClick={() => void choose(l)}
            >
              {LANGUAGE_LABELS[l]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
