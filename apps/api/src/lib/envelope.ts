import { z } from 'zod';
import type { Envelope } from '@portal/contract';

/** The spec's envelope around a route's data schema (data is null on errors). */
export const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ code: z.number(), msg: z.string(), data: data.nullable() });

export const pageOf = <T extends z.ZodTypeAny>(row: T) => z.object({ content: z.array(row), totalElements: z.number() });

export function ok<T>(data: T): Envelope<T> {
  return { code: 0, msg: 'success', data };
}
