// What every pane is given: the server picked in the navigation.

export interface PaneProps {
  /** The server picked in the navigation; null for every server. */
  server: string | null
}
