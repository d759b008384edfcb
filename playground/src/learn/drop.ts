/**
 * A folder (or files) dropped on the Learn tab. Chromium gives each dropped item as a file-system
 * handle (`getAsFileSystemHandle`), which is posted to the worker and walked there, as a picked folder's
 * handle is. Where a browser has no handles, or gives none for an item, the items' entries
 * (`webkitGetAsEntry`) are walked in the page, each folder's entries sorted by name and read in
 * batches, and the files go to the worker over a port, named by their path from the dropped folder.
 * A dropped file is read whatever its name ends with, as `rearview learn <file>` reads a named file.
 */
import { createSignal } from 'solid-js';
import { type DirHandle, type FileHandle, type NamedFile, SESSION_FILE, SKIP_DIRS } from './files';
import { FILE_BATCH, type FileBatch } from './protocol';

/** What was dropped: handles for the worker to walk, or files read from entries in the page. */
export type Dropped =
  | { kind: 'handles'; handles: (DirHandle | FileHandle)[] }
  | { kind: 'files'; files: NamedFile[] };

type Item = DataTransferItem & {
  getAsFileSystemHandle?: () => Promise<DirHandle | FileHandle | null | undefined>;
};

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Reads a drop's items. Call it inside the `drop` handler: a DataTransfer's items are readable only
 * during the event, so every item is asked for its handle, entry and file before the first await.
 */
export function readDrop(dt: DataTransfer): Promise<Dropped> {
  const items = [...dt.items].filter((i) => i.kind === 'file') as Item[];
  const handles = items.map((i) =>
    typeof i.getAsFileSystemHandle === 'function' ? i.getAsFileSystemHandle() : Promise.resolve(null),
  );
  const entries = items.map((i) => (typeof i.webkitGetAsEntry === 'function' ? i.webkitGetAsEntry() : null));
  const files = items.map((i) => i.getAsFile());
  return (async () => {
    // A handle is null (or, for an item made in script, undefined) where the browser has none.
    const got = await Promise.all(handles.map((h) => h.catch(() => null)));
    if (got.length > 0 && got.every((h) => h?.kind === 'directory' || h?.kind === 'file'))
      return { kind: 'handles', handles: (got as (DirHandle | FileHandle)[]).sort(byName) };
    const out: NamedFile[] = [];
    const tops = items
      .map((_, i) => ({ entry: entries[i], file: files[i], name: entries[i]?.name ?? files[i]?.name ?? '' }))
      .sort(byName);
    for (const top of tops) {
      if (top.entry?.isDirectory) await walkEntry(top.entry as FileSystemDirectoryEntry, '', out);
      else if (top.entry?.isFile)
        out.push({ file: await fileOf(top.entry as FileSystemFileEntry), name: top.name });
      else if (top.file) out.push({ file: top.file, name: top.name });
    }
    return { kind: 'files', files: out };
  })();
}

const fileOf = (e: FileSystemFileEntry) => new Promise<File>((resolve, reject) => e.file(resolve, reject));

/** Every session file under `dir`, in the CLI's order (each folder's entries by name, depth first). */
async function walkEntry(dir: FileSystemDirectoryEntry, prefix: string, out: NamedFile[]): Promise<void> {
  const reader = dir.createReader();
  const entries: FileSystemEntry[] = [];
  // readEntries gives a folder's entries in batches (100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    entries.push(...batch);
  }
  entries.sort(byName);
  const path = `${prefix}${dir.name}/`;
  for (const e of entries) {
    if (e.isDirectory) {
      if (!SKIP_DIRS.has(e.name)) await walkEntry(e as FileSystemDirectoryEntry, path, out);
    } else if (e.isFile && SESSION_FILE.test(e.name)) {
      out.push({ file: await fileOf(e as FileSystemFileEntry), name: `${path}${e.name}` });
    }
  }
}

/** A drop's files read in the page, posted on `port` in batches, as the folder input's frame posts its files. */
export function postFiles(port: MessagePort, files: readonly NamedFile[]): void {
  for (let i = 0; i < files.length; i += FILE_BATCH) {
    const batch = files.slice(i, i + FILE_BATCH);
    port.postMessage({
      files: batch.map((f) => f.file),
      names: batch.map((f) => f.name),
      more: i + FILE_BATCH < files.length,
    } satisfies FileBatch);
  }
  port.close();
}

/**
 * The Learn tab's drop handlers: files and folders dropped while no run goes on are read
 * ({@link readDrop}) and handed to `onDropped`; other drags (text into the AGENTS.md field) keep their
 * usual drop. `dragging` is true while files are held over the tab.
 */
export function dropTarget(running: () => boolean, onDropped: (dropped: Promise<Dropped>) => void) {
  const [dragging, setDragging] = createSignal(false);
  const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') === true;
  return {
    dragging,
    onDragOver(e: DragEvent) {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (!running()) setDragging(true);
    },
    onDragLeave(e: DragEvent) {
      // Leaving for a child of the tab is not leaving the tab.
      const to = e.relatedTarget as Node | null;
      if (!(e.currentTarget as Node).contains(to)) setDragging(false);
    },
    onDrop(e: DragEvent) {
      setDragging(false);
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (running() || !e.dataTransfer) return;
      onDropped(readDrop(e.dataTransfer));
    },
  };
}
