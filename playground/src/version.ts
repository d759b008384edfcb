/** Replaced at build time by vite.config.ts's `define`, from package.json. */
declare const __REARVIEW_VERSION__: string;

/**
 * The package version the header shows: package.json's, which a unit test keeps equal to the library's
 * `VERSION`. Importing that one from the root entry would load the stores the entry re-exports (IndexedDB
 * adapter included) on first visit, since the lazily loaded playbook store shares their modules.
 */
export const VERSION: string = __REARVIEW_VERSION__;
