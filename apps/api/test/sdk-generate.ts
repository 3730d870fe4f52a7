/**
 * `npm run sdk:generate`: writes the SDK's types (packages/sdk/src/generated/v1.ts) from the /v1
 * document of an app on an in-memory PGlite database (no network, no server). Decision 075.
 */
import fs from 'node:fs';
import { createTestApp } from './helpers';
import { SDK_TYPES_FILE, sdkTypesOf } from './sdk-types';

const ctx = await createTestApp({ seed: false });
try {
  const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
  const src = await sdkTypesOf(doc);
  const before = fs.existsSync(SDK_TYPES_FILE) ? fs.readFileSync(SDK_TYPES_FILE, 'utf8') : '';
  fs.writeFileSync(SDK_TYPES_FILE, src);
  console.log(`${SDK_TYPES_FILE}: ${before === src ? 'unchanged' : 'written'} (${src.length} characters)`);
} finally {
  await ctx.close();
}
