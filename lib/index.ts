/**
 * rearview: agents that learn from what they just did. The root entry re-exports every module;
 * import a subpath (`rearview/core`, …) to keep bundles minimal.
 *
 * @module
 */
export * from './core/index.js';
export * from './durable/index.js';
export * from './failures/index.js';
export * from './heuristic/index.js';
export * from './llm/index.js';
export * from './llm-reflect/index.js';
export * from './loop/index.js';
export * from './playbook/index.js';
export * from './post-turn/index.js';
export * from './redact/index.js';
export * from './session/index.js';
export * from './snapshot/index.js';
export * from './store/index.js';
export * from './transcript/index.js';

/** The package version, kept in step with package.json by a unit test. */
export const VERSION = '0.1.0';
