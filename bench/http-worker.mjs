// The benchmark's HTTP clients in a thread of their own (see RemoteClient in http.ts): measures each
// GET here and sends back only its time and what it counted, so the server's thread does no client work.
import http from 'node:http';
import { parentPort } from 'node:worker_threads';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

parentPort.on('message', ({ id, url, token }) => {
  const t0 = performance.now();
  http
    .get(url, { agent, headers: { 'x-token': token, accept: 'application/json' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        const t = performance.now() - t0;
        try {
          const b = JSON.parse(body);
          parentPort.postMessage({ id, t, status: res.statusCode, bytes: body.length, code: b.code, msg: b.msg, n: b.data?.totalElements ?? b.data?.days?.length ?? 0 });
        } catch (e) {
          parentPort.postMessage({ id, t, status: res.statusCode, bytes: body.length, code: -2, msg: `${res.statusCode} ${body.slice(0, 200)}: ${e}`, n: 0 });
        }
      });
    })
    .on('error', (e) => parentPort.postMessage({ id, t: performance.now() - t0, status: 0, bytes: 0, code: -2, msg: String(e), n: 0 }));
});
