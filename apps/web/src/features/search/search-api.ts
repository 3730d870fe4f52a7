import type { SearchResult } from '@portal/contract';
import { http } from '../../lib/http';

/** GET /search?q= — the top bar's global search (errors such as a refused input shown by the client). */
export const searchIds = (q: string) => http.get<SearchResult>('/search', { q });
