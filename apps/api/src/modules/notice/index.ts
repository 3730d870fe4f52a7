/**
 * The notice module's door (issue 45 §1–2): its manifest and what other modules may use of it.
 * A module imports it from here, never from its files (`npm run lint:deps`).
 */
import { defineModule } from '../contract';
import { noticeRoutes } from './notice.routes';
import { seedNoticeAttachment } from './attachment.service';

/** Notices to merchants and their attachments; the demo seed gives a notice a PDF (Files download). */
export const manifest = defineModule({
  name: 'notice',
  routes: noticeRoutes,
  seed: (deps) => seedNoticeAttachment(deps.db, deps.config.dataDir),
});

// What other modules use of it (issue 45 §2: through this door only).
export { attachFile, checkAttachment } from './attachment.service';
export type { AttachmentFormat } from './attachment.service';
export { noticeVisible } from './visibility';
