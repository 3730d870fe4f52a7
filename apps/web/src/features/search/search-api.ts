import { http } from '../../lib/http';
import { HomeApi } from '@portal/contract';

/** GET /search?q= — the top bar's global search (errors such as a refused input shown by the client). */
export const searchIds = (q: string) => http.call(HomeApi.search, { q });
