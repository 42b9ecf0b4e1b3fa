// The operations behind `ferry login`, `ferry logout`, the WebShell's Sign in and the OAuth
// callback, over the pool's connections and the daemon's one registry of pending sign-ins. The
// callback needs no bearer token: what it may do is bounded by the `state` it carries, which only
// a sign-in a person started here has recorded, once.

import { ErrorCode, FerryError, errorMessage } from '../errors.js'
import type { Log } from '../log.js'
import type { Connection } from '../mcp/connection.js'
import type { SignIns } from '../mcp/oauth/sign-ins.js'
import type {
  LoginOutcome,
  LoginResponse,
  LogoutResponse,
  ServerStatus,
} from '../protocol/index.js'

/** The longest one wait request is held open; the CLI asks again while the sign-in is pending. */
export const WAIT_AT_MOST_MS = 50_000

/** What the callback page tells the person. */
export interface CallbackOutcome {
  ok: boolean
  server: string | null
  message: string
}

export class SignInService {
  constructor(
    private readonly signIns: SignIns,
    private readonly connection: (server: string) => Connection,
    private readonly log: Log,
  ) {}

  /** Starts a sign-in: the page to open; it waits there for the browser's redirect. */
  async login(server: string): Promise<LoginResponse> {
    const started = await this.connection(server).beginSignIn()
    return {
      server,
      authorizationUrl: started.authorizationUrl,
      expiresAt: new Date(started.expiresAt).toISOString(),
    }
  }

  /** Waits until the server's latest sign-in ends: with the server's status after it. */
  async wait(server: string, signal: AbortSignal): Promise<LoginOutcome> {
    const connection = this.connection(server)
    const outcome = await this.signIns.pending.wait(server, signal, WAIT_AT_MOST_MS)
    switch (outcome) {
      case 'none':
        throw new FerryError(
          ErrorCode.Conflict,
          `no sign-in to "${server}" was started; start one with \`ferry login ${server}\``,
        )
      case 'pending':
        return { server, pending: true, status: connection.status, error: null }
      case 'expired':
        return {
          server,
          pending: false,
          status: connection.status,
          error: 'the sign-in was not finished within 10 minutes; run `ferry login` again',
        }
      case 'aborted':
        throw new FerryError(ErrorCode.Conflict, 'stopped waiting')
      default:
        return outcome
    }
  }

  /** Forgets the server's tokens, revoking them where its authorization server offers it. */
  async logout(server: string): Promise<LogoutResponse> {
    const { forgotten, revoked } = await this.connection(server).forgetSignIn()
    this.log({ kind: 'server.signed_out', server, forgotten, revoked })
    return { server, forgotten, revoked }
  }

  /** The browser came back: finishes the sign-in its `state` names, or refuses. */
  async callback(params: URLSearchParams): Promise<CallbackOutcome> {
    const state = params.get('state')
    const pending = state === null ? undefined : this.signIns.pending.take(state)
    if (pending === undefined) {
      this.log({ kind: 'oauth.callback_refused' })
      return {
        ok: false,
        server: null,
        message:
          'This sign-in is not waiting here: it was finished already, it expired, or Ferry did not ' +
          'start it. Run `ferry login <server>` to start a new one.',
      }
    }
    const { server, verifier } = pending
    const settle = (outcome: LoginOutcome): CallbackOutcome => {
      this.signIns.pending.settle(outcome)
      const ok = outcome.status === 'ready' && outcome.error === null
      return {
        ok,
        server,
        message: ok
          ? `Signed in to ${server}. It is ready; you can close this tab.`
          : `Signing in to ${server} did not work: ${outcome.error ?? outcome.status}`,
      }
    }
    const refused = params.get('error')
    if (refused !== null) {
      // The authorization server's own code ("access_denied"); its free text is not shown.
      return settle({
        server,
        pending: false,
        status: this.statusOf(server),
        error: `the authorization server answered "${refused.slice(0, 64)}"`,
      })
    }
    const code = params.get('code')
    if (code === null) {
      return settle({
        server,
        pending: false,
        status: 'needs_login',
        error: 'the redirect carried no code',
      })
    }
    try {
      const after = await this.connection(server).finishSignIn(
        code,
        params.get('iss') ?? undefined,
        verifier,
      )
      const error =
        after.status === 'ready'
          ? null
          : after.status === 'needs_login'
            ? `the server still refuses after the sign-in (${after.error ?? 'no reason given'})`
            : after.error
      return settle({ server, pending: false, status: after.status, error })
    } catch (error) {
      return settle({
        server,
        pending: false,
        status: this.statusOf(server),
        error: errorMessage(error),
      })
    }
  }

  /** The server's status now; a server removed meanwhile counts as still waiting for a sign-in. */
  private statusOf(server: string): ServerStatus {
    try {
      return this.connection(server).status
    } catch {
      return 'needs_login'
    }
  }
}
