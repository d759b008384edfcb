/**
 * The quality rules a proposed rule must pass: a self-contained imperative instruction a person would
 * paste into AGENTS.md. Each rule names its reason, so a run reports what it left out and why.
 */

/**
 * `judgeFailure` of `rearview/failures`: why a failure lesson is no rule, or undefined when it is one.
 */
export { judgeFailure } from '../failures/index.js';

/**
 * `judgeKeyPoint` of `rearview/playbook`, under the name `learn` has used: why a proposed rule is not
 * worth proposing, or undefined when it is one.
 */
export { judgeKeyPoint as judgeRule } from '../playbook/index.js';
