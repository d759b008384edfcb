/**
 * The Learn tab's worker: lists the picked or dropped folder (or takes batches of files), streams the
 * files through `learn` one at a time (a File is a lazy reference: only the file being read is in
 * memory), reports progress and stops on cancel. Nothing leaves the browser.
 */
import { type LearnSource, learn, toMarkdown, toUnifiedDiff } from 'rearview/learn';
import { loadScorer } from '../scorers';
import { loadDictionary } from '../spelling';
import { type DirHandle, type FileHandle, type NamedFile, relativePath, walkHandles } from './files';
import {
  FILE_BATCH,
  type FileBatch,
  type FromLearnWorker,
  type LearnTotal,
  type ToLearnWorker,
} from './protocol';

let controller: AbortController | undefined;

/** learn's default cap on one file (256 MiB). */
const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

const post = (m: FromLearnWorker) => (self as unknown as Worker).postMessage(m);

/** The files listed so far, and whether more are coming. */
let queue: (NamedFile | undefined)[] = [];
let next = 0;
let more = false;
let wake: (() => void) | undefined;
let total: LearnTotal = { files: 0, bytes: 0, complete: false };
let lastTotal = 0;
/** Files listed so far, and how many the page said were chosen (the input's count is known up front). */
let listed = 0;
let announced = 0;

/** Adds files to the queue; the page hears the running total at most ~20 times a second. */
function enqueue(files: NamedFile[], complete: boolean) {
  for (const f of files) {
    queue.push(f);
    // Here, not in the page: reading `size` may ask the browser process for the file's metadata.
    total.bytes += f.file.size;
  }
  listed += files.length;
  total.files = Math.max(listed, announced);
  total.complete = complete;
  more = !complete;
  const now = Date.now();
  if (complete || now - lastTotal >= 50) {
    lastTotal = now;
    post({ type: 'total', total: { ...total } });
  }
  wake?.();
}

/** Walks a picked or dropped folder (or dropped files) into the queue, a few files per update. */
async function list(handles: readonly (DirHandle | FileHandle)[], signal: AbortSignal) {
  let batch: NamedFile[] = [];
  try {
    for await (const f of walkHandles(handles)) {
      if (signal.aborted) break;
      batch.push(f);
      if (batch.length >= FILE_BATCH) {
        enqueue(batch, false);
        batch = [];
      }
    }
  } finally {
    enqueue(batch, true);
  }
}

async function* sources(maxBytes: number): AsyncGenerator<LearnSource> {
  for (;;) {
    while (next >= queue.length && more) await new Promise<void>((resolve) => (wake = resolve));
    if (next >= queue.length) return;
    const { file: f, name } = queue[next]!;
    // Read files are let go: one file at a time in memory.
    queue[next++] = undefined;
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

const named = (files: File[]) => files.map((file) => ({ file, name: relativePath(file) }));

self.onmessage = async (e: MessageEvent<ToLearnWorker>) => {
  const m = e.data;
  if (m.type === 'cancel') {
    controller?.abort();
    more = false;
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
  const { signal } = controller;
  queue = [];
  next = 0;
  total = { files: 0, bytes: 0, complete: false };
  lastTotal = 0;
  listed = 0;
  announced = m.total;
  more = true;
  let listing: Promise<void> | undefined;
  if (m.handles) {
    listing = list(m.handles, signal);
    // Awaited after learn; until then a failed walk must not count as unhandled.
    listing.catch(() => {});
  } else if (m.port) {
    const port = m.port;
    port.onmessage = (b: MessageEvent<FileBatch>) => {
      if (signal.aborted) return port.close();
      const { files, names } = b.data;
      enqueue(
        names ? files.map((file, i) => ({ file, name: names[i] ?? file.name })) : named(files),
        !b.data.more,
      );
      if (!b.data.more) port.close();
    };
  } else enqueue([], true);
  let last = 0;
  try {
    const result = await learn(sources(MAX_SOURCE_BYTES), {
      maxSourceBytes: MAX_SOURCE_BYTES,
      minSessions: m.minSessions,
      ...(m.since !== undefined ? { since: m.since } : {}),
      ...(m.budget ? { budget: m.budget } : {}),
      ...(m.against ? { against: m.against } : {}),
      ...(m.detector ? await loadScorer(m.detector) : {}),
      // Typos in rules repaired as `rearview learn` repairs them (the same dictionaries).
      ...(await loadDictionary().then((isWord) => (isWord ? { isWord } : {}))),
      ...(m.markers ? { markers: m.markers } : {}),
      signal,
      onProgress: (progress) => {
        // At most ~20 updates a second: the page redraws on each.
        const now = Date.now();
        if (now - last < 50 && !(total.complete && progress.files >= total.files)) return;
        last = now;
        post({ type: 'progress', progress });
      },
    });
    await listing;
    post({ type: 'done', result });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
};
