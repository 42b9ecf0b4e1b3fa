// Bounds every layer shares, kept where the lowest of them can read them.

/** The largest request body Ferry reads, on `/api` and `/mcp` alike. */
export const MAX_BODY_BYTES = 1024 * 1024
