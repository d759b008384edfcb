// A Workers KV backend for workerd, as module source: an in-memory Map speaking the HTTP protocol
// workerd's KV binding uses (GET/PUT/DELETE /<key>?urlencoded=true, GET /?prefix=&cursor= to list),
// with KV's 25 MiB value limit. Bound with `kvNamespace = "<service>"` by the edge example's runner,
// the Workers KV store tests and the Durable Object bench, so all three talk to the same fake.
export const KV_BACKEND = `
const data = new Map();
export default {
  async fetch(request) {
    const url = new URL(request.url);
    const params = url.searchParams;
    if (url.pathname === '/' && request.method === 'GET' && !params.has('urlencoded')) {
      const prefix = params.get('prefix') ?? '';
      const limit = Number(params.get('key_count_limit') ?? 1000);
      const start = Number(params.get('cursor') ?? 0);
      const names = [...data.keys()].filter((k) => k.startsWith(prefix)).sort();
      const page = names.slice(start, start + limit);
      const complete = start + limit >= names.length;
      return Response.json({ keys: page.map((name) => ({ name })), list_complete: complete, ...(complete ? {} : { cursor: String(start + limit) }) });
    }
    const key = decodeURIComponent(url.pathname.slice(1));
    if (request.method === 'GET') {
      return data.has(key) ? new Response(data.get(key)) : new Response(null, { status: 404 });
    }
    if (request.method === 'PUT') {
      const body = await request.text();
      if (body.length > 25 * 1024 * 1024) return new Response('Value too large', { status: 413, statusText: 'Value length limit exceeded' });
      data.set(key, body);
      return new Response(null, { status: 200 });
    }
    if (request.method === 'DELETE') {
      data.delete(key);
      return new Response(null, { status: 200 });
    }
    return new Response('unsupported', { status: 405 });
  },
};
`;
