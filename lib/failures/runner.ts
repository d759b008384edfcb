/**
 * Other spellings of one command. Through a package runner: `npx vercel deploy` runs `vercel deploy`
 * from the project's packages or the registry, so a command that failed because its program is not
 * installed (`command not found: vercel`) and then worked through a runner did the same job, and the
 * fix is "run it through `npx`". With the program's version: `python3 app.py` after `python app.py`
 * failed with "command not found: python" ("run `python3` instead of `python`").
 */
import { commandHead, isSetupStep } from './error-class.js';

/** A runner opening a command, with its "yes" switch: `npx -y`, `bunx`, `pnpx`, `pnpm dlx`, `yarn dlx`. */
const RUNNER = /^((?:npx|bunx|pnpx|pnpm\s+dlx|yarn\s+dlx)(?:\s+(?:-y|--yes))?)\s+(?=[^\s-])/;
/** Characters read: the runner and the program sit at the start. */
const WINDOW = 4096;
/** Setup steps skipped at most. */
const MAX_STEPS = 8;

/**
 * @internal A command run through a package runner, split: the runner as written (`npx`, `npx -y`)
 * and the command it runs; undefined when no runner opens the command (after its setup steps).
 *
 * @example
 * ```ts
 * throughRunner('cd web && npx vercel deploy --prod'); // { runner: 'npx', command: 'vercel deploy --prod' }
 * throughRunner('vercel deploy'); // undefined
 * ```
 */
export function throughRunner(command: string): { runner: string; command: string } | undefined {
  let c = command.trimStart().slice(0, WINDOW);
  // Setup steps before it (`cd app &&`, `PATH=… &&`, `source .venv/bin/activate;`), as commandHead skips them.
  for (let i = 0; i < MAX_STEPS; i++) {
    const and = c.indexOf('&&');
    const semi = c.indexOf(';');
    const at = and < 0 ? semi : semi < 0 ? and : Math.min(and, semi);
    if (at < 0 || /[|]/.test(c.slice(0, at)) || !isSetupStep(c.slice(0, at).trim())) break;
    c = c.slice(at + (at === and ? 2 : 1)).trimStart();
  }
  const m = RUNNER.exec(c);
  return m ? { runner: m[1]!.replace(/\s+/g, ' '), command: c.slice(m[0].length) } : undefined;
}

/**
 * @internal What a command run through a package runner acts on, as `commandHead` reads the command
 * it runs (`npx vercel deploy` → `vercel deploy`), or undefined.
 *
 * @example
 * ```ts
 * runnerTarget('npx -y vercel --version'); // 'vercel'
 * ```
 */
export function runnerTarget(command: string): string | undefined {
  const r = throughRunner(command);
  return r ? commandHead(r.command) || undefined : undefined;
}

/** A first word ending in a version (`python3`, `python3.11`, `pip3`): the program and the version. */
const VERSIONED = /^([A-Za-z][\w-]*?)[\d.]+(?=\s|$)/;

/**
 * @internal A call's target with its program's version dropped (`python3 app.py` → `python app.py`):
 * two targets equal this way name one command under two installed names.
 *
 * @example
 * ```ts
 * versionless('python3 manage.py'); // 'python manage.py'
 * versionless('k8s apply'); // 'k8s apply'
 * ```
 */
export function versionless(target: string): string {
  return target.replace(VERSIONED, '$1');
}
