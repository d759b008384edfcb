/** The CLI's sources (cli/). */
export declare const cliSrc: string;
/** The built CLI (dist/cli). */
export declare const cliOut: string;
/** The built entry, dist/cli/rearview.js: what package.json's `bin.rearview` names. */
export declare const cliEntry: string;
/** Whether dist/cli is missing or older than a source of cli/. */
export declare function cliIsStale(): boolean;
/** Builds cli/*.ts into dist/cli (or `outDir`). */
export declare function buildCli(options?: { quiet?: boolean; outDir?: string }): Promise<void>;
