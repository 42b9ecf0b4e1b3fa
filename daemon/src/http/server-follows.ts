// One stream client's live feeds of servers (`follow_server`): each new trace entry and log line
// of a followed server as a `trace` or `server_log` message, after an optional replay of what is
// kept, with no gap between the two.

import type { CatalogApi } from '../service/ferry-service.js'
import type { FollowServerCommand, StreamMessage } from '../protocol/index.js'

export class ServerFollows {
  private readonly stops = new Map<string, () => void>()

  constructor(
    private readonly catalog: CatalogApi,
    private readonly send: (message: StreamMessage) => void,
  ) {}

  /** Replays, then follows; throws (nothing followed) for a server not in the settings. */
  follow(command: FollowServerCommand): void {
    const { server } = command
    const observer = this.catalog.observer(server)
    this.unfollow(server)
    const stops: (() => void)[] = []
    if (command.feeds.includes('trace')) {
      if (command.traceAfterSeq !== undefined) {
        for (const entry of observer.trace.after(command.traceAfterSeq)) {
          this.send({ type: 'trace', server, entry })
        }
      }
      stops.push(observer.trace.subscribe((entry) => this.send({ type: 'trace', server, entry })))
    }
    if (command.feeds.includes('logs')) {
      if (command.logsAfterSeq !== undefined) {
        for (const line of observer.linesAfter(command.logsAfterSeq)) {
          this.send({ type: 'server_log', server, line })
        }
      }
      stops.push(observer.subscribe((line) => this.send({ type: 'server_log', server, line })))
    }
    this.stops.set(server, () => {
      for (const stop of stops) stop()
    })
  }

  unfollow(server: string): void {
    this.stops.get(server)?.()
    this.stops.delete(server)
  }

  close(): void {
    for (const server of [...this.stops.keys()]) this.unfollow(server)
  }
}
