// The bounds of what a live MCP App may ask, in a file of their own with no schemas, so the
// WebShell can import the values without bringing zod along.

/** At most this many content blocks in one App message or model-context update. */
export const APP_CONTENT_BLOCKS_LIMIT = 50
/** A download asks for at most this many files, of at most this many bytes in all. */
export const APP_DOWNLOAD_FILES_LIMIT = 20
export const APP_DOWNLOAD_BYTES_LIMIT = 10 * 1024 * 1024
