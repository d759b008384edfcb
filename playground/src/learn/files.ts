/**
 * Picking a folder. The directory picker's handle (or a dropped folder's: drop.ts) goes to the worker,
 * which walks it there: listing and opening thousands of files costs the page nothing. The
 * `webkitdirectory` input is in a frame of its own (folder-frame.ts).
 */

/** Names of files a session folder holds (as the CLI reads them). */
export const SESSION_FILE = /\.(?:jsonl|json|md|markdown|txt|log)$/i;
/** Folders never walked into. */
export const SKIP_DIRS = new Set(['node_modules', '.git']);

/** The parts of FileSystemDirectoryHandle the walk uses (the DOM typings lack `values()`). */
export interface DirHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirHandle | FileHandle>;
}
export interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}

/** A session file and its path relative to the picked folder's parent (the name learn reports). */
export interface NamedFile {
  file: File;
  name: string;
}

/** True when the browser offers `showDirectoryPicker` (Chromium); else the `webkitdirectory` input is used. */
export function hasDirectoryPicker(): boolean {
  return typeof (globalThis as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Asks for a folder; its handle can be posted to a worker, which walks it with {@link walkDirectory}. */
export function pickDirectory(): Promise<DirHandle> {
  return (globalThis as unknown as { showDirectoryPicker(): Promise<DirHandle> }).showDirectoryPicker();
}

/** The session files under `root` in path order, each opened (a lazy File) as the walk reaches it. */
export async function* walkDirectory(root: DirHandle): AsyncGenerator<NamedFile> {
  async function* walk(dir: DirHandle, prefix: string): AsyncGenerator<NamedFile> {
    const entries: (DirHandle | FileHandle)[] = [];
    for await (const h of dir.values()) entries.push(h);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const h of entries) {
      if (h.kind === 'directory') {
        if (!SKIP_DIRS.has(h.name)) yield* walk(h, `${prefix}${h.name}/`);
      } else if (SESSION_FILE.test(h.name)) {
        yield { file: await h.getFile(), name: `${prefix}${h.name}` };
      }
    }
  }
  yield* walk(root, `${root.name}/`);
}

/**
 * The session files of dropped handles, in the given order: a folder walked as a picked one is, a
 * file read whatever its name ends with (it was chosen by name).
 */
export async function* walkHandles(handles: readonly (DirHandle | FileHandle)[]): AsyncGenerator<NamedFile> {
  for (const h of handles) {
    if (h.kind === 'directory') yield* walkDirectory(h);
    else yield { file: await h.getFile(), name: h.name };
  }
}

/** A File's path within the picked folder where the input gave one, else its name. */
export const relativePath = (f: File) =>
  (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
