/** Path of the committed surface report (api/surface.json). */
export declare const SURFACE_FILE: string;
/** The surface of the current sources, serialized as the committed report holds it. */
export declare function currentSurface(): string;
/** subpath → name → kind and signature, read from the declaration files under `libDir`. */
export declare function surface(
  libDir: string,
): Record<string, Record<string, { kind: string; signature: string }>>;
