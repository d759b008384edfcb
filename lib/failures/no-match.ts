/**
 * A search that found nothing: `grep`, `rg` and their kin exit with status 1 when no line matches,
 * and a runner reports the call as failed. It is an answer, not a failure: no lesson is learnt from
 * it, and no snapshot lists it as a problem.
 */
import { errorLine } from '../core/index.js';
import { headWords, shellCommand } from './error-class.js';

/** Programs whose exit status 1 means "nothing matched" (PowerShell's `Select-String` is `sls`). */
const SEARCHES = new Set([
  'grep',
  'egrep',
  'fgrep',
  'zgrep',
  'rg',
  'ag',
  'ack',
  'findstr',
  'select-string',
  'sls',
]);
/** An exit status written in a runner's notice ("Command failed with exit code 1."). */
const STATUS = /\bexit(?:ed)?(?: with)?(?: exit)? code:?\s*(-?\d+)/i;
/** Only a command's first line and first characters are read, as `headWords` does. */
const WINDOW = 4096;

/**
 * Whether a failed shell call is a search that matched nothing: its output holds no error line (it
 * is empty, or only a runner's exit notice whose status is 1), and the command's last stage, after
 * any `|`, `&&`, `||` or `;` outside quotes, runs a search program (`rg --files -g 'x*'`,
 * `ls | grep -i docker`, `netstat -ano | findstr "5432"`, `git grep x`). A step as `rearview/failures`
 * and `rearview/transcript` write it (`tool`, `action`: a command or a JSON input, `error`). Linear;
 * never throws.
 *
 * @example
 * ```ts
 * searchFoundNothing({ tool: 'shell', action: '{"command":["bash","-lc","rg -n todo src"]}', error: '' }); // true
 * searchFoundNothing({ tool: 'bash', action: 'ls | grep -i docker', error: 'Command exited with code 1' }); // true
 * searchFoundNothing({ tool: 'bash', action: 'grep -r x nope/', error: 'grep: nope/: No such file or directory' }); // false
 * searchFoundNothing({ tool: 'bash', action: 'npm test', error: '' }); // false
 * ```
 */
export function searchFoundNothing(step: { tool?: unknown; action?: unknown; error?: unknown }): boolean {
  if (step === null || typeof step !== 'object') return false;
  const { tool, action, error } = step;
  if (typeof error !== 'string') return false;
  const command = shellCommand(
    typeof tool === 'string' ? tool : '',
    typeof action === 'string' ? action : undefined,
  );
  if (!command) return false;
  // The command first: most failed calls are no search, and their output (up to 400 lines) is not read.
  const { program, arg } = headWords(lastStage(command));
  const name = program.toLowerCase();
  if (!SEARCHES.has(name) && !(name === 'git' && arg === 'grep')) return false;
  const { line, exited } = errorLine(error);
  if (line !== undefined) return false;
  if (!exited) return error.trim() === '';
  const status = STATUS.exec(error);
  return status === null || status[1] === '1';
}

/** The command after the last `|`, `&&`, `||` or `;` of its first line that no quote holds. */
function lastStage(command: string): string {
  const line = command.trimStart().slice(0, WINDOW).split('\n', 1)[0] ?? '';
  let quote = 0;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
      // A backslash escapes the next character inside double quotes only.
      else if (c === 0x5c && quote === 0x22) i++;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x5c) i++;
    else if (c === 0x7c || c === 0x3b || (c === 0x26 && line.charCodeAt(i + 1) === 0x26)) {
      // `||` and `&&` are two characters: the stage starts after both.
      if (line.charCodeAt(i + 1) === c) i++;
      start = i + 1;
    }
  }
  return line.slice(start);
}
