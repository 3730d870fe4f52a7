/**
 * The benchmarks' HTTP client: node:http with a keep-alive agent (one socket per concurrent client),
 * about half the per-call cost of the global fetch. What it measures is the server, not the client.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** GET `url` with the token; resolves to the parsed JSON body. */
export function getJson<T = unknown>(url: string, token: string): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { 'x-token': token, accept: 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(body) as T);
          } catch (e) {
            reject(new Error(`${res.statusCode} ${body.slice(0, 200)}: ${String(e)}`));
          }
        });
      })
      .on('error', reject);
  });
}
