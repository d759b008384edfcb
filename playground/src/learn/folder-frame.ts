/**
 * The folder input (`<input type=file webkitdirectory>`) lives in a sandboxed frame of its own. When a
 * folder is chosen, Chromium builds the input's FileList in one task on the input's thread, with a
 * synchronous MIME-type request to the browser process per file (0.4-1 ms each: 2-5 s for 5,000 files),
 * and cloning each File to the worker asks for its size and date the same way. A sandboxed frame
 * without `allow-same-origin` has an opaque origin, which Chromium runs in a process of its own, so
 * that work holds the frame's thread while the page stays responsive. The frame sorts the files and
 * posts them in small batches straight to the worker over a MessagePort; the page's thread never
 * touches them. In a browser that keeps the frame in the page's process it costs what the input did.
 */
import { SESSION_FILE, SKIP_DIRS } from './files';
import { FILE_BATCH } from './protocol';

/** What the frame says to the page. */
export type FromFolderFrame = { type: 'picked'; total: number };
/** What the page says to the frame: `send` carries the worker's port. */
export type ToFolderFrame = { type: 'disabled'; value: boolean } | { type: 'send' };

/**
 * The frame's script, serialised with `toString()`: it may use only its parameters and the DOM (so
 * it posts its own batches rather than calling drop.ts's `postFiles`). Batches of `batchSize` files
 * per task keep the frame itself responsive too.
 */
function frameMain(sessionFile: RegExp, skipDirs: string[], batchSize: number) {
  const input = document.getElementById('input') as HTMLInputElement;
  let files: File[] = [];
  input.addEventListener('change', () => {
    const keyed: { parts: string[]; file: File }[] = [];
    for (const file of input.files ?? []) {
      const parts = (file.webkitRelativePath || file.name).split('/');
      if (sessionFile.test(file.name) && !parts.some((p) => skipDirs.includes(p)))
        keyed.push({ parts, file });
    }
    // Name by name, as the CLI and the directory walk read a folder (each folder's entries sorted,
    // depth first): a whole-path sort would put "a-b.jsonl" or "a.jsonl" before "a/x.jsonl", as '-'
    // and '.' sort before '/', and learn's evidence, placeholders and skipped list follow read order.
    keyed.sort((a, b) => {
      const n = Math.min(a.parts.length, b.parts.length);
      for (let i = 0; i < n; i++) {
        const x = a.parts[i]!;
        const y = b.parts[i]!;
        if (x !== y) return x < y ? -1 : 1;
      }
      return a.parts.length - b.parts.length;
    });
    files = keyed.map((k) => k.file);
    parent.postMessage({ type: 'picked', total: files.length }, '*');
  });
  addEventListener('message', (e: MessageEvent) => {
    if (e.source !== parent) return;
    if (e.data?.type === 'disabled') input.disabled = Boolean(e.data.value);
    if (e.data?.type !== 'send' || !e.ports[0]) return;
    const port = e.ports[0];
    const sending = files;
    files = [];
    // The same folder may be chosen again.
    input.value = '';
    let i = 0;
    const step = () => {
      const batch = sending.slice(i, i + batchSize);
      i += batch.length;
      port.postMessage({ files: batch, more: i < sending.length });
      if (i < sending.length) setTimeout(step, 0);
      else port.close();
    };
    step();
  });
}

/** The frame's document: the input, styled like the page's controls, and its script. */
export function folderFrameDoc(): string {
  const script = `(${frameMain.toString()})(${SESSION_FILE.toString()}, ${JSON.stringify([...SKIP_DIRS])}, ${FILE_BATCH});`;
  return `<!doctype html><meta charset="utf-8"><style>html,body{margin:0;padding:0;background:transparent;color-scheme:light dark;font:13px system-ui,sans-serif}input{max-width:100%}</style><input type="file" multiple webkitdirectory id="input" data-testid="learn-folder-input" aria-label="Choose a folder of sessions"><script>${script}</script>`;
}
