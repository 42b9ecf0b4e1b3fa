// Follows one server's feed through the daemon's stream (`follow_server`): what is kept first,
// then each new entry, until stopped; after a lost stream it follows again from the last seq seen
// (from the start when the daemon was restarted, since its trace and logs are in memory).

import WebSocket from 'ws'
import { readRuntimeFile } from '../daemon/runtime-file.js'
import { ErrorCode, FerryError } from '../errors.js'
import {
  STREAM_AUTH_PREFIX,
  STREAM_PROTOCOL,
  type ServerLogLine,
  type StreamMessage,
  type TraceEntry,
} from '../protocol/index.js'
import { notRunning } from './daemon-client.js'

export type Feed =
  | { feed: 'trace'; onEntry: (entry: TraceEntry) => void }
  | { feed: 'logs'; onEntry: (line: ServerLogLine) => void }

/** Resolves never while following; rejects when the daemon refuses (an unknown server, say). */
export function followServer(
  stateDir: string,
  server: string,
  feed: Feed,
  onStatus: (text: string) => void,
): Promise<never> {
  let lastSeq = 0
  let pid: number | undefined
  let retryMs = 200
  return new Promise<never>((_resolve, reject) => {
    const connect = async (): Promise<void> => {
      const info = await readRuntimeFile(stateDir)
      if (info === undefined) {
        if (pid === undefined) return reject(notRunning(stateDir))
        return retry('waiting for the daemon')
      }
      if (pid !== undefined && info.pid !== pid) lastSeq = 0
      pid = info.pid
      const url = new URL('api/stream', info.url)
      url.protocol = 'ws:'
      const ws = new WebSocket(url, [STREAM_PROTOCOL, `${STREAM_AUTH_PREFIX}${info.token}`])
      ws.on('open', () => {
        retryMs = 200
        ws.send(
          JSON.stringify({
            type: 'hello',
            client: { kind: 'cli', label: `ferry ${feed.feed} ${server}` },
            readOnly: true,
          }),
        )
        ws.send(
          JSON.stringify({
            type: 'follow_server',
            ref: 'follow',
            server,
            feeds: [feed.feed],
            ...(feed.feed === 'trace' ? { traceAfterSeq: lastSeq } : { logsAfterSeq: lastSeq }),
          }),
        )
      })
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as StreamMessage
        if (message.type === 'trace' && feed.feed === 'trace' && message.server === server) {
          if (message.entry.seq <= lastSeq) return
          lastSeq = message.entry.seq
          feed.onEntry(message.entry)
        } else if (
          message.type === 'server_log' &&
          feed.feed === 'logs' &&
          message.server === server
        ) {
          if (message.line.seq <= lastSeq) return
          lastSeq = message.line.seq
          feed.onEntry(message.line)
        } else if (message.type === 'reply' && !message.ok) {
          ws.removeAllListeners('close')
          ws.close()
          reject(new FerryError(message.error.code as ErrorCode, message.error.message))
        }
      })
      ws.on('error', () => {})
      ws.on('close', () => retry('lost the daemon'))
    }
    const retry = (why: string): void => {
      onStatus(`${why}; reconnecting`)
      const delay = retryMs
      retryMs = Math.min(retryMs * 2, 5000)
      setTimeout(() => void connect().catch(reject), delay)
    }
    void connect().catch(reject)
  })
}
