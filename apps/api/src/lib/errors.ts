import { Code } from '@portal/contract';
import type { MessageKey } from './messages';

/** A business error: rendered by the error handler as the envelope `{code, msg, data}`. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly httpStatus = 200,
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

export const badRequest = (detail: string) => new AppError(Code.BAD_REQUEST, 'badRequest', { detail }, 400);
export const notFound = () => new AppError(Code.NOT_FOUND, 'notFound', {}, 404);
export const forbidden = () => new AppError(Code.FORBIDDEN, 'forbidden', {}, 403);
