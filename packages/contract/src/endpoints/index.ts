// The portal's endpoint table (issue 45 §3, decision 074), by area. `ALL_ENDPOINTS` (./all.ts) lists
// every descriptor for the route-table suite; the web imports the areas it calls.
export * from './endpoint';
export type { WireQuery } from './wire';
export * from './user';
export * from './merchant';
export * from './txn';
export * from './paybylink';
export * from './team';
export * from './sso';
export * from './developer';
export * from './work';
export * from './bankrec';
export * from './disputes';
export * from './ops-types';
export * from './ops';
