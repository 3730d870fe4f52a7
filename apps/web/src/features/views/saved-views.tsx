import { lazy, Suspense, useState } from 'react';
import { Button, Dropdown, type MenuProps } from 'antd';
import { BookOutlined, DownOutlined, SaveOutlined, SettingOutlined, StarFilled, TeamOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { VIEW_SCREENS, viewQueryOf, viewScreenOf, type SavedView, type ViewScreenKey } from '@portal/contract';
import { useCan } from '../../components/can';
import { feedback } from '../../lib/feedback';
import { useAddView, useDefaultView, useRemoveView, useUpdateView, useViews } from './views-api';
import { useViewUrl, viewSearch } from './use-view-url';
import type { SaveViewValues } from './save-view-dialog';

// The dialogs (Form, Checkbox, List, Switch, Popconfirm) load with the first one opened, not with
// every list screen (issue 16, target 6).
const SaveViewDialog = lazy(() => import('./save-view-dialog').then((m) => ({ default: m.SaveViewDialog })));
const ManageViewsDialog = lazy(() => import('./manage-views-dialog').then((m) => ({ default: m.ManageViewsDialog })));

/**
 * Saved views of a list or report screen (issue 13), beside its search buttons: open a view, save
 * the current filters (from the URL) under a name, manage (default, share and its link, delete).
 * Renders nothing on a screen without views or without its permission.
 */
export function SavedViews() {
  const { pathname } = useLocation();
  const screen = viewScreenOf(pathname);
  const can = useCan(screen ? VIEW_SCREENS[screen].permission : 'none');
  if (!screen || !can) return null;
  return <SavedViewsMenu screen={screen} />;
}

function SavedViewsMenu({ screen }: { screen: ViewScreenKey }) {
  const { t } = useTranslation('views');
  const list = useViews(screen, true);
  const views = list.data?.content;
  const { viewId, setParams } = useViewUrl(views);
  const [dialog, setDialogState] = useState<'save' | 'manage' | null>(null);
  // Once opened a dialog stays mounted (closed), so it can animate out and opens at once next time.
  const [opened, setOpened] = useState<{ save?: boolean; manage?: boolean }>({});
  const setDialog = (d: 'save' | 'manage' | null) => {
    if (d) setOpened((o) => ({ ...o, [d]: true }));
    setDialogState(d);
  };
  const add = useAddView(screen);
  const update = useUpdateView(screen);
  const remove = useRemoveView(screen);
  const setDefault = useDefaultView(screen);
  const current = views?.find((v) => String(v.id) === viewId);
  const message = { success: (text: string) => feedback().message.success(text) };

  const open = (v: SavedView) => {
    setParams(viewSearch(v));
    setDialog(null);
  };
  const query = () => viewQueryOf(screen, window.location.search);
  const save = async (v: SaveViewValues) => {
    try {
      const saved = await add.mutateAsync({ name: v.name, query: query(), shared: v.shared });
      if (v.isDefault) await setDefault.mutateAsync(saved.id);
      setParams(viewSearch(saved), { replace: true });
      setDialog(null);
      message.success(t('save.done', { name: saved.name }));
      return saved;
    } catch {
      return undefined; // shown by the request client
    }
  };
  const ignore = () => undefined;
  const actions = {
    open,
    toggleDefault: (v: SavedView) =>
      setDefault.mutateAsync(v.isDefault ? undefined : v.id).then(() => message.success(t(v.isDefault ? 'manage.defaultCleared' : 'manage.defaultSet', { name: v.name })), ignore),
    toggleShared: (v: SavedView, shared: boolean) =>
      update.mutateAsync({ id: v.id, shared }).then(() => message.success(t(shared ? 'manage.sharedDone' : 'manage.unsharedDone', { name: v.name })), ignore),
    overwrite: (v: SavedView) => update.mutateAsync({ id: v.id, query: query() }).then(() => message.success(t('manage.overwritten', { name: v.name })), ignore),
    remove: (v: SavedView) => remove.mutateAsync(v.id).then(() => message.success(t('manage.deleted', { name: v.name })), ignore),
    linkOf: (v: SavedView) => `${window.location.origin}${VIEW_SCREENS[screen].path}?view=${v.id}`,
  };

  const items: MenuProps['items'] = [
    ...(views ?? []).map((v) => ({
      key: `v${v.id}`,
      label: v.name,
      icon: v.isDefault ? <StarFilled aria-label={t('tag.default')} /> : v.shared ? <TeamOutlined aria-label={t('tag.shared')} /> : <BookOutlined aria-hidden />,
      onClick: () => open(v),
    })),
    ...(views?.length ? [{ type: 'divider' as const }] : []),
    { key: 'save', label: t('menu.save'), icon: <SaveOutlined aria-hidden />, onClick: () => setDialog('save') },
    { key: 'manage', label: t('menu.manage'), icon: <SettingOutlined aria-hidden />, onClick: () => setDialog('manage') },
  ];

  return (
    <>
      <Dropdown menu={{ items }} trigger={['click']}>
        <Button icon={<BookOutlined aria-hidden />} className="saved-views__button">
          <span className="saved-views__label">{current ? t('menu.current', { name: current.name }) : t('menu.views')}</span>
          <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
      {opened.save && (
        <Suspense fallback={null}>
          <SaveViewDialog open={dialog === 'save'} busy={add.isPending} onSave={save} onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {opened.manage && (
        <Suspense fallback={null}>
          <ManageViewsDialog open={dialog === 'manage'} views={views ?? []} actions={actions} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </>
  );
}
