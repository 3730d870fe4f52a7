import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Perm, storeSchema, type Store } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { listStores, storeInScope, toStore } from '../store';
import { V1Error } from './v1.errors';
import { keyOf, narrowScope } from './v1.txn.routes';
import { named } from './v1.registry';

/** A store of the key's merchants (the portal's store list shape, without its cashier count). */
const v1StoreSchema = named(storeSchema.omit({ cashiers: true }).extend({}), 'Store', "A store of one of the key's merchants: where in-store orders are made (storeId of POST /v1/in-store-orders)");
const storeList = named(z.object({ data: z.array(v1StoreSchema), has_more: z.boolean(), next_cursor: z.string().nullable() }), 'StoreList');
const view = ({ cashiers: _c, ...s }: Store) => s;
/** Links handed out: configuration only (PUBLIC_URL), as the pay-by-link module builds them — never the request's Host. */
const linkBaseOf = (deps: Deps) => deps.config.publicUrl.replace(/\/+$/, '');

/** The key's stores (issue 50): what `storeId` of an in-store order can be. */
export function v1StoreRoutes(f: FastifyInstance, deps: Deps) {
  const r = f.withTypeProvider<ZodTypeProvider>();
  const hidden = ['X-HIDDEN'];

  r.get('/stores', {
    config: { v1: { permission: Perm.payInStoreList, tag: 'in-store-orders' } },
    schema: {
      tags: hidden,
      operationId: 'listStores',
      summary: "The key's merchants' stores (one page: every store), with the payment methods and currencies each takes",
      querystring: z.strictObject({
        merId: z
          .string()
          .regex(/^\d{15}$/)
          .optional()
          .describe("one of the key's merchants; another merchant's id matches nothing"),
      }),
      response: { 200: storeList },
    },
    handler: async (req) => {
      const scope = narrowScope(keyOf(req).scope, req.query.merId);
      const rows = scope.length ? await listStores(deps.db, scope) : [];
      return { data: rows.map((s) => view(toStore(s, linkBaseOf(deps)))), has_more: false, next_cursor: null };
    },
  });

  r.get('/stores/:id', {
    config: { v1: { permission: Perm.payInStoreList, tag: 'in-store-orders' } },
    schema: { tags: hidden, operationId: 'getStore', summary: 'One store', params: z.strictObject({ id: z.string().max(32) }), response: { 200: v1StoreSchema } },
    handler: async (req) => {
      try {
        return view(toStore(await storeInScope(deps, req.params.id, keyOf(req).scope), linkBaseOf(deps)));
      } catch {
        throw new V1Error(404, 'not_found_error', 'resource_missing', 'notFound', {}, 'id');
      }
    },
  });
}
