// The MCP Apps extension (`io.modelcontextprotocol/ui`) as Ferry negotiates it: what every client
// declares, and how to tell whether a server declared it too.

import type { ServerCapabilities } from '@modelcontextprotocol/client'
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server'

export const UI_EXTENSION_ID = EXTENSION_ID
/** The one MIME type an App resource may have. */
export const APP_MIME_TYPE = RESOURCE_MIME_TYPE

/** The client capabilities every connection declares (a fresh object each time). */
export function clientCapabilities(): { extensions: Record<string, { mimeTypes: string[] }> } {
  return { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } }
}

/** Apps are shown only for servers that declare the extension, in either protocol era. */
export function serverSupportsApps(capabilities: ServerCapabilities | undefined): boolean {
  const declared = capabilities?.extensions?.[UI_EXTENSION_ID]
  return typeof declared === 'object' && declared !== null
}
