/**
 * Which tool calls change a file, by the tool's name, across the formats this folder reads: Claude
 * Code's `Edit`, `Write`, `MultiEdit`, `NotebookEdit` (and the console's `Update`), Cursor's and
 * Copilot's `edit_file(_v2)`, `search_replace`, `replace_string_in_file`, Cline's `write_to_file` and
 * `replace_in_file`, Antigravity's `replace_file_content`, Codex's `apply_patch`, VS Code's
 * `editedExistingFile` / `newFileCreated`, SWE-agent's `edit`, `create` and `insert`. Not `todo_write`,
 * `update_plan` or `write_stdin`, which write no file.
 */
const FILE_EDIT_TOOL =
  /^(?:edit(?:_file(?:_v2)?)?|edit file|multiedit|notebookedit|write(?:_file|_to_file)?|update|create(?:_file|_or_update_file)?|insert|search_replace|replace_(?:file_content|string_in_file|in_file)|multi_replace_(?:file_content|string_in_file)|apply_patch|editedexistingfile|newfilecreated)$/i;

/**
 * Whether a tool call of this name changes a file (an edit, a write or a patch), whatever agent wrote
 * it. Case does not matter.
 *
 * @example
 * ```ts
 * isFileEditTool('MultiEdit'); // true
 * isFileEditTool('todo_write'); // false
 * ```
 */
export function isFileEditTool(name: string): boolean {
  return typeof name === 'string' && FILE_EDIT_TOOL.test(name);
}

/** Tools that run a command line: Claude Code's `Bash`, Codex's `shell` and `exec_command`, Cline's, Cursor's. */
const SHELL_TOOL =
  /^(?:bash|shell|local_shell|exec_command|run_command|execute_command|bash_command|run_terminal_cmd|run_in_terminal)$/i;

/**
 * Whether a tool call changes a file: a call of an edit tool ({@link isFileEditTool}), or a command
 * line that applies a patch (Codex's `apply_patch` run through its shell, `bash -lc "apply_patch <<'PATCH'
 * *** Begin Patch …"`, as its older rollouts do). `input` is the call's arguments as the transcript
 * gives them (`Message.content` of the call). Other shell writes (`sed -i`, `cat > f <<EOF`) are not
 * counted: they also write scratch files and test fixtures.
 *
 * @example
 * ```ts
 * isFileEditCall('Edit', '{"file_path":"a.ts"}'); // true
 * isFileEditCall('shell', '{"command":["bash","-lc","apply_patch <<\'PATCH\'\\n*** Begin Patch\\n…"]}'); // true
 * isFileEditCall('shell', '{"command":["ls"]}'); // false
 * ```
 */
export function isFileEditCall(name: string, input: string): boolean {
  if (isFileEditTool(name)) return true;
  if (typeof name !== 'string' || typeof input !== 'string' || !SHELL_TOOL.test(name)) return false;
  const at = input.indexOf('apply_patch');
  return at >= 0 && input.indexOf('*** Begin Patch', at) >= 0;
}

/** aider's report of a change it wrote to disk, on a line of its own output. */
const APPLIED_EDIT = /^Applied edit to \S/m;

/**
 * Whether a tool's output reports an edit the agent applied without a call of its own: aider writes
 * the model's edit blocks itself and says so in its output (`Applied edit to src/app.py`), which the
 * transcript gives as a `tool` message named `aider` right after the reply that held the blocks. An
 * output flagged as a failure (`isError`) is the caller's to exclude: a failed block prints beside
 * the ones that applied.
 *
 * @example
 * ```ts
 * isAppliedEditReport('aider', 'Tokens: 3k sent, 200 received.\nApplied edit to src/app.py'); // true
 * isAppliedEditReport('aider', 'Added src/app.py to the chat'); // false
 * ```
 */
export function isAppliedEditReport(name: string, output: string): boolean {
  return name === 'aider' && typeof output === 'string' && APPLIED_EDIT.test(output);
}

/** A patch's file header (`*** Update File: src/a.ts`), as written or inside a call's JSON string. */
const PATCH_FILE = /\*\*\* (?:Update|Add) File: ([^\n\\"]+)/g;

/**
 * The files a patch updates or adds (Codex's `apply_patch`, also run through its shell), in its
 * order, each once, at most `max`; empty for input that holds no patch. A file the patch deletes is
 * not one: nothing is left there to look at or to have been edited. Linear in the input's length.
 *
 * @example
 * ```ts
 * patchedFiles('*** Begin Patch\n*** Update File: a.js\n@@\n*** Add File: b.js\n+x'); // ['a.js', 'b.js']
 * patchedFiles('{"command":"ls"}'); // []
 * ```
 */
export function patchedFiles(input: string, max = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  if (typeof input !== 'string' || max < 1) return out;
  for (const m of input.matchAll(PATCH_FILE)) {
    const file = m[1]!.trim();
    if (file !== '' && !out.includes(file)) out.push(file);
    if (out.length >= max) break;
  }
  return out;
}
