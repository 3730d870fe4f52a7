/** The `/v1` document's named schemas: `lib/v1-registry.ts` (a module that owns a /v1 object names it there too, decision 079). */
export { named, v1Registry } from '../../lib/v1-registry';
