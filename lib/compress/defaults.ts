/**
 * AgentDiet's defaults (arXiv 2509.23586): the one source of the defaults of `reduceTrajectory`'s
 * `a`, `b`, `theta` and `compactTrajectory`'s `keepRecent` (= `a`); the snapshot's tuning specs
 * (`PARAM_SPECS`) read them from here.
 */

/**
 * AgentDiet's default delay `a` in steps (also `compactTrajectory`'s default `keepRecent`).
 *
 * @example
 * ```ts
 * await reduceTrajectory(steps, { llm, a: DIET_A + 1 });
 * ```
 */
export const DIET_A = 2;
/**
 * AgentDiet's default context `b` in steps.
 *
 * @example
 * ```ts
 * await reduceTrajectory(steps, { llm, b: DIET_B });
 * ```
 */
export const DIET_B = 1;
/**
 * AgentDiet's default θ in tokens: steps smaller than this are not sent to the model.
 *
 * @example
 * ```ts
 * await reduceTrajectory(steps, { llm, theta: DIET_THETA * 2 });
 * ```
 */
export const DIET_THETA = 500;
