/**
 * The Learn tab's worker: streams the picked files through `learn` one at a time (a File is a lazy
 * reference: only the file being read is in memory), reports progress and stops on cancel. Nothing
 * leaves the browser.
 */
import { type LearnSource, learn, toMarkdown, toUnifiedDiff } from 'rearview/learn';
import type { FromLearnWorker, ToLearnWorker } from './protocol';

let controller: AbortController | undefined;

/** learn's default cap on one file (256 MiB). */
const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

const post = (m: FromLearnWorker) => (self as unknown as Worker).postMessage(m);

/** The picked files that arrived so far, and whether more batches are coming. */
let queue: File[] = [];
let next = 0;
let more = false;
let wake: (() => void) | undefined;

async function* sources(maxBytes: number): AsyncGenerator<LearnSource> {
  for (;;) {
    while (next >= queue.length && more) await new Promise<void>((resolve) => (wake = resolve));
    if (next >= queue.length) return;
    const f = queue[next]!;
    // Read files are let go: one file at a time in memory.
    queue[next++] = undefined as unknown as File;
    const name = (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
    // One file is read at a time, whole: the browser decodes it natively in one step, where a stream
    // would hand over many chunks to decode and join in script. A file past learn's cap is passed as a
    // stream, which learn stops reading at the cap.
    if (f.size > maxBytes) yield { name, stream: f.stream(), modified: f.lastModified };
    else {
      let text: string;
      try {
        text = await f.text();
      } catch {
        // Unreadable now (moved, permissions): learn reports the stream's error as a skipped file.
        yield { name, stream: f.stream(), modified: f.lastModified };
        continue;
      }
      yield { name, text, modified: f.lastModified };
    }
  }
}

self.onmessage = async (e: MessageEvent<ToLearnWorker>) => {
  const m = e.data;
  if (m.type === 'cancel') {
    controller?.abort();
    more = false;
    wake?.();
    return;
  }
  if (m.type === 'files') {
    queue.push(...m.files);
    more = m.more;
    wake?.();
    return;
  }
  if (m.type === 'export') {
    // Formatting lives here too: the page's first load carries none of rearview/learn.
    const text =
      m.as === 'markdown'
        ? toMarkdown({ rules: m.rules })
        : toUnifiedDiff({ rules: m.rules }, m.against, 'AGENTS.md');
    post({ type: 'exported', text });
    return;
  }
  controller = new AbortController();
  queue = m.files.slice();
  next = 0;
  more = m.more;
  let last = 0;
  try {
    const result = await learn(sources(MAX_SOURCE_BYTES), {
      maxSourceBytes: MAX_SOURCE_BYTES,
      minSessions: m.minSessions,
      ...(m.budget ? { budget: m.budget } : {}),
      ...(m.against ? { against: m.against } : {}),
      signal: controller.signal,
      onProgress: (progress) => {
        // At most ~20 updates a second: the page redraws on each.
        const now = Date.now();
        if (now - last < 50 && progress.files < m.total) return;
        last = now;
        post({ type: 'progress', progress });
      },
    });
    post({ type: 'done', result });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
