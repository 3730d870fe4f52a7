import { lazy, Suspense, useState } from 'react';
import { Button, Grid, Input } from 'antd';
import { viewportWidth } from '../../lib/ssr-env';
import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SEARCH_MAX_LENGTH, SEARCH_PERMISSIONS, searchHitPath, type SearchHit } from '@portal/contract';
import { useCan } from '../../components/can';
import { searchIds } from './search-api';

// The results dialog (List, Tag, Typography) loads with the first search that lists hits (issue 16).
// The phone's search dialog loads when first opened.
const Modal = lazy(() => import('antd/es/modal'));
const SearchResults = lazy(() => import('./search-results').then((m) => ({ default: m.SearchResults })));

/**
 * The top bar's global search (issue 13): paste any id, land on its record — one hit opens it,
 * several are listed to choose from, none says so. On a phone the field opens in a dialog.
 */
export function GlobalSearch() {
  const { t } = useTranslation('search');
  const can = useCan(SEARCH_PERMISSIONS);
  const navigate = useNavigate();
  const screens = Grid.useBreakpoint();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<{ q: string; hits: SearchHit[] } | null>(null);
  // Mounted from the first result on (it stays, closed, to animate out).
  const [listed, setListed] = useState(false);
  const [dialogUsed, setDialogUsed] = useState(false);
  if (!can) return null;

  const run = async (raw: string) => {
    const q = raw.trim();
    if (!q || busy) return;
    setBusy(true);
    try {
      const r = await searchIds(q);
      setOpen(false);
      if (r.content.length === 1) {
        setValue('');
        navigate(searchHitPath(r.content[0]));
      } else {
        setListed(true);
        setResult({ q, hits: r.content });
      }
    } catch {
      // The request client has shown the error (e.g. a refused input, in the user's language).
    } finally {
      setBusy(false);
    }
  };

  const field = (
    <Input.Search
      className="global-search__input"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onSearch={(v) => void run(v)}
      maxLength={SEARCH_MAX_LENGTH}
      placeholder={t('placeholder')}
      aria-label={t('label')}
      enterButton={<Button type="primary" icon={<SearchOutlined />} aria-label={t('submit')} />}
      loading={busy}
      autoFocus={open}
    />
  );
  // Before antd has measured the breakpoints (the first render, also on the server): the viewport's width.
  const narrow = screens.md === undefined ? viewportWidth() < 768 : screens.md === false;
  return (
    <div className="global-search" role="search">
      {narrow ? (
        <>
          <Button
            type="text"
            icon={<SearchOutlined />}
            aria-label={t('label')}
            onClick={() => {
              setDialogUsed(true);
              setOpen(true);
            }}
          />
          {dialogUsed && (
            <Suspense fallback={null}>
              <Modal open={open} title={t('label')} footer={null} onCancel={() => setOpen(false)} destroyOnHidden>
                <div role="search">{field}</div>
              </Modal>
            </Suspense>
          )}
        </>
      ) : (
        field
      )}
      {listed && (
        <Suspense fallback={null}>
          <SearchResults q={result?.q ?? ''} hits={result?.hits ?? null} onClose={() => setResult(null)} />
        </Suspense>
      )}
    </div>
  );
}
