import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isChunkError, reloadingForChunk, reloadOnceForChunk } from '../lib/chunk-reload';
import { lastRequestId } from '../lib/request';

/**
 * The web's safety net (issue 45 §4): a screen that throws shows a translated "something went
 * wrong" with the latest request id and a way back, instead of blanking the page. One boundary
 * wraps the whole app (app-root.tsx), one each screen of the shell (shell-routes.tsx, keyed by the
 * path, so going to another screen starts afresh while the menu stays usable). A chunk missing
 * after a deploy reloads the page once (lib/chunk-reload.ts); failing again, it says so.
 *
 * Plain elements and CSS, no antd: the app-level boundary sits outside antd's providers.
 */
interface Props {
  children: ReactNode;
  /** `app`: the whole page; `screen`: the area of one screen inside the shell. */
  scope: 'app' | 'screen';
}
interface State {
  error: unknown;
  requestId: string | null;
  reloading: boolean;
}

export class ErrorBoundary extends Component<Props, State> {
  state: State = { error: null, requestId: null, reloading: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, requestId: lastRequestId() };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The page is already on its way to the new build (Vite's preload guard started the reload).
    if (reloadingForChunk()) {
      this.setState({ reloading: true });
      return;
    }
    if (isChunkError(error) && reloadOnceForChunk()) {
      this.setState({ reloading: true });
      return;
    }
    // Kept for the browser's console (and the e2e console guard); never sent anywhere.
    console.error(`portal: a ${this.props.scope} failed`, error, info.componentStack);
  }

  render() {
    const { error, requestId, reloading } = this.state;
    if (error === null) return this.props.children;
    if (reloading || reloadingForChunk()) return null;
    return <CrashNotice scope={this.props.scope} chunk={isChunkError(error)} requestId={requestId} onRetry={() => this.setState({ error: null, requestId: null })} />;
  }
}

function CrashNotice({ scope, chunk, requestId, onRetry }: { scope: Props['scope']; chunk: boolean; requestId: string | null; onRetry: () => void }) {
  const { t } = useTranslation('common');
  const Heading = scope === 'app' ? 'h1' : 'h2';
  return (
    <div className={`crash-notice crash-notice--${scope}`} role="alert">
      <Heading className="crash-notice__title">{t(chunk ? 'crash.chunkTitle' : 'crash.title')}</Heading>
      <p>{t(chunk ? 'crash.chunkText' : 'crash.text')}</p>
      <p className="crash-notice__ref">{requestId ? t('crash.reference', { id: requestId }) : t('crash.noReference')}</p>
      <div className="crash-notice__actions">
        {chunk ? (
          <button type="button" className="crash-notice__primary" onClick={() => window.location.reload()}>
            {t('crash.reload')}
          </button>
        ) : (
          <button type="button" className="crash-notice__primary" onClick={onRetry}>
            {t('crash.retry')}
          </button>
        )}
        <a href="/">{t('crash.home')}</a>
      </div>
    </div>
  );
}
