/**
 * A Cloudflare module worker that calls the Messages API through rearview's anthropicClient (the
 * real SDK, bundled from dist/). The API key lives in the worker's environment, never in the request.
 * GET /?base=<mock url>&stream=1&maxRetries=N runs one completion and answers with JSON.
 */
import { anthropicClient } from 'rearview/llm';

interface Env {
  ANTHROPIC_API_KEY: string;
}

export default {
  async fetch(req: Request, env: Env): Promise<Response> {
    const params = new URL(req.url).searchParams;
    const llm = anthropicClient({
      apiKey: env.ANTHROPIC_API_KEY,
      baseURL: params.get('base') ?? '',
      maxRetries: Number(params.get('maxRetries') ?? 3),
      retry: { baseDelayMs: 20 },
    });
    try {
      const res = await llm.complete({
        messages: [{ role: 'user', content: 'hello from workerd' }],
        maxTokens: 32,
        stream: params.get('stream') === '1',
        ...(params.get('abortMs') ? { signal: AbortSignal.timeout(Number(params.get('abortMs'))) } : {}),
      });
      return Response.json({ ok: true, text: res.text, attempts: res.attempts, model: res.model });
    } catch (err) {
      const e = err as { code?: string; status?: number; attempts?: number; message?: string };
      return Response.json({
        ok: false,
        code: e.code,
        status: e.status,
        attempts: e.attempts,
        message: e.message,
      });
    }
  },
};
