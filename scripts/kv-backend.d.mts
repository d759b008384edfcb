/** Module source of the in-memory Workers KV backend for workerd (see kv-backend.mjs). */
export declare const KV_BACKEND: string;
