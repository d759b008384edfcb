/** Picking a folder: the directory picker where the browser has one, walked to a flat list of files. */

/** Names of files a session folder holds (as the CLI reads them). */
export const SESSION_FILE = /\.(?:jsonl|json|md|markdown|txt|log)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git']);

interface DirHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirHandle | FileHandle>;
}
interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}

/** True when the browser offers `showDirectoryPicker` (Chromium); else the `webkitdirectory` input is used. */
export function hasDirectoryPicker(): boolean {
  return typeof (globalThis as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Asks for a folder and lists its session files (each a lazy File, with its path relative to the folder). */
export async function pickDirectory(): Promise<File[]> {
  const root = await (
    globalThis as unknown as { showDirectoryPicker(): Promise<DirHandle> }
  ).showDirectoryPicker();
  const out: File[] = [];
  const walk = async (dir: DirHandle, prefix: string) => {
    const entries: (DirHandle | FileHandle)[] = [];
    for await (const h of dir.values()) entries.push(h);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const h of entries) {
      if (h.kind === 'directory') {
        if (!SKIP_DIRS.has(h.name)) await walk(h, `${prefix}${h.name}/`);
      } else if (SESSION_FILE.test(h.name)) {
        const f = await h.getFile();
        out.push(new File([f], `${prefix}${h.name}`, { lastModified: f.lastModified }));
      }
    }
  };
  await walk(root, `${root.name}/`);
  return out;
}

/** The session files of an `<input type=file webkitdirectory multiple>` selection, in path order. */
export function sessionFiles(list: FileList | null): File[] {
  const files = [...(list ?? [])].filter((f) => {
    const path = (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
    return SESSION_FILE.test(f.name) && !path.split('/').some((p) => SKIP_DIRS.has(p));
  });
  const key = (f: File) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
  return files.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
