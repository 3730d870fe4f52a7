/** `npm run build:api` (part of `npm run build`): apps/api/dist/server.mjs, see build-api.ts. */
import { buildApi } from './build-api';

const { bytes, sources, ms } = await buildApi();
console.log(`api: dist/server.mjs, ${(bytes / 1048576).toFixed(1)} MB from ${sources} sources, in ${ms} ms`);
