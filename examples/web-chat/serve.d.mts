/** Types of serve.mjs (plain JS so it runs with `node` alone). */
export declare const outDir: string;
export declare function buildChat(): Promise<string>;
export declare function startChatServer(options?: {
  port?: number;
  host?: string;
  upstream?: string;
  apiKey?: string;
  build?: boolean;
}): Promise<{ url: string; close: () => Promise<void> }>;
