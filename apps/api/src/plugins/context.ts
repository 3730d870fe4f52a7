import type { Language } from '@portal/contract';
import type { Db } from '../db/db';
import type { Clock } from '../lib/clock';
import type { Config } from '../config';
import type { Mailer } from './mail';

/** What every module gets: passed in explicitly, so tests give their own clock, db and mailer. */
export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
}

/** The signed-in caller, resolved from X-Token by the auth hook. */
export interface SessionUser {
  id: number;
  username: string;
  email: string;
  merId: string;
  merName: string;
  userType: 'MAIN' | 'SUB';
  userAdmin: boolean;
  permissions: string[];
  sessionId: number;
  /** Merchant ids this caller may see: its merchant and, for a group, the group's sub-merchants. */
  scope: string[];
  stepUpUntil: Date | null;
  /** The merchant requires TOTP and this user has none yet: only /api/user/* calls are allowed. */
  mustEnrolTotp?: boolean;
  /** The zone the user chose for shown times (IANA); null: the browser's. */
  timeZone?: string | null;
  /** A support operator's read-only "view as" of this merchant (decision 046); absent for users. */
  viewAs?: { id: number; operatorId: number; operator: string; expiresAt: Date } | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the server-side renderer was asked to load (app.ts: on the first request with a session). */
    rendererLoaded(): boolean;
  }
  interface FastifyRequest {
    lang: Language;
    /** Hours east of UTC the caller's browser is in (X-Timezone-Offset), -12..14. */
    tzOffset: number;
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** 'public' routes need no token; otherwise a signed-in user holding `permission` (if set). */
    auth?: 'public' | 'user';
    permission?: string | string[];
  }
}
