// How a connection recovers from a remote server's faults: a 404 on a known session is renewed
// at once and the request resent once (the server did not process it); refused connections,
// dropped streams and 5xx mark the server down, to be retried like a crashed process.

import type { Client } from '@modelcontextprotocol/client'
import type { TransportKind } from '../config/types.js'
import type { Log } from '../log.js'
import { remoteFaultOf } from './http-failures.js'

/** A remote server whose stream broke must answer a ping within this, or be marked down. */
export const REMOTE_PING_TIMEOUT_MS = 5000

export interface RecoveryHost {
  readonly name: string
  /** The current transport (settings may change it on reload). */
  transport(): TransportKind
  readonly log: Log
  /** The ready client and the generation it belongs to; throws why the server is not ready. */
  ready(): { client: Client; generation: number }
  /** Drops the client and connects again now; failures show in the status. */
  renew(): Promise<void>
  /** Marks the server failed for `reason` and schedules a reconnect, if `generation` is current. */
  down(generation: number, reason: string): void
}

export class RemoteRecovery {
  private pinging = false
  /** A new session being made; concurrent requests that met the same 404 wait for it. */
  private renewing: Promise<void> | undefined
  private renewedFrom: number | undefined

  constructor(private readonly host: RecoveryHost) {}

  /**
   * Runs `send` on the ready client. On Streamable HTTP a 404 on the session means the server
   * restarted or expired it: a new session is made and `send` runs once more (a second 404 is an
   * error). On any remote transport, refused connections and 5xx mark the server down.
   */
  async run<T>(send: (client: Client) => Promise<T>): Promise<T> {
    const { client, generation } = this.host.ready()
    try {
      return await send(client)
    } catch (error) {
      if (this.host.transport() !== 'streamable-http') throw this.noteFault(generation, error)
      if (remoteFaultOf(error)?.kind !== 'session-lost') throw this.noteFault(generation, error)
      await this.renew(generation)
      const renewed = this.host.ready()
      try {
        return await send(renewed.client)
      } catch (second) {
        throw this.noteFault(renewed.generation, second)
      }
    }
  }

  /** The SDK reported a transport error (e.g. the event stream broke): is the server still up? */
  check(): void {
    if (this.host.transport() === 'stdio' || this.pinging) return
    this.pinging = true
    this.run((client) => client.ping({ timeout: REMOTE_PING_TIMEOUT_MS }))
      .catch(() => {})
      .finally(() => (this.pinging = false))
  }

  /** Marks the server down when `error` says it is; returns `error` for the caller to throw. */
  private noteFault(generation: number, error: unknown): unknown {
    if (this.host.transport() === 'stdio') return error
    const fault = remoteFaultOf(error)
    if (fault?.kind === 'down') this.host.down(generation, fault.reason)
    return error
  }

  private renew(generation: number): Promise<void> {
    if (this.renewing !== undefined && this.renewedFrom === generation) return this.renewing
    this.host.log({ kind: 'server.session_lost', server: this.host.name })
    this.renewedFrom = generation
    this.renewing = this.host.renew().finally(() => (this.renewing = undefined))
    return this.renewing
  }
}
