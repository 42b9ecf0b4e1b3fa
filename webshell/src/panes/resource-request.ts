// Asking the Resources pane to show a resource from elsewhere (a link or an embedded resource in
// a tool result). Small and free of the pane itself, so the transcript can ask before it loads.

export interface ResourceRequest {
  server: string
  uri: string
  /** The `ReadResourceResult`-shaped contents a result embedded; absent, the pane reads the URI. */
  embedded?: { contents: unknown[] }
  /** Tells two requests for the same URI apart, so asking again reads again. */
  nonce: number
}

export type OpenResource = (request: Omit<ResourceRequest, 'nonce'>) => void
