// The MCP Apps extension (`io.modelcontextprotocol/ui`) as Ferry declares it on every connection.
// Whether a server declares it too does not matter: a tool's App counts by what its resource is.

import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'

export const UI_EXTENSION_ID = EXTENSION_ID
/** The one MIME type an App resource may have. */
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE

/** The client capabilities every connection declares (a fresh object each time). */
export function clientCapabilities(): { extensions: Record<string, { mimeTypes: string[] }> } {
  return { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } }
}
