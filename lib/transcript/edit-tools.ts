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
