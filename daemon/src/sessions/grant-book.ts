// The "always allow" grants in force, per session. Each is bound to what its question showed (the
// server's connection fingerprint and, for a tool, its definition) and to whose calls it covers:
// a person's grant covers every caller of its session, a gateway client's only that client.

import type { ClientRef, GrantInfo, GrantScope } from '../protocol/index.js'

/** What a call is, as far as a grant is concerned. */
export interface GrantedCall {
  /** Qualified name. */
  tool: string
  server: string
  serverFingerprint: string
  toolFingerprint: string
}

export interface Grant {
  /** The call whose confirmation gave it. */
  id: string
  scope: GrantScope
  /** Qualified tool name; null for a server grant. */
  tool: string | null
  server: string
  /** Undefined in transcripts written before questions recorded them: such a grant holds nothing. */
  serverFingerprint: string | undefined
  toolFingerprint: string | undefined
  givenBy: ClientRef
  /** The one client whose calls it covers; null for every caller of its session. */
  coversClient: string | null
  since: string
  seq: number
}

/** A grant that no longer matches what it was given for, and why. */
export interface Lapse {
  grant: Grant
  reason: string
}

const UNRECORDED = 'it was given before Ferry recorded what an "always" answer allows'

/** Whose calls an answer by `by` may cover: a gateway client's answer is its own. */
export function coverageOf(by: ClientRef): string | null {
  return by.kind === 'mcp' ? by.id : null
}

/** How a grant reads in the transcript and in messages. */
export function grantName(grant: Pick<Grant, 'scope' | 'tool' | 'server'>): string {
  return grant.scope === 'server'
    ? `the "always allow" for server "${grant.server}"`
    : `the "always allow" for tool ${grant.tool ?? ''}`
}

/** Why `grant` does not hold for `call` any more; undefined while it holds. */
function lapseOf(grant: Grant, call: GrantedCall): string | undefined {
  if (grant.scope === 'server') {
    if (grant.serverFingerprint === undefined) return UNRECORDED
    return grant.serverFingerprint === call.serverFingerprint
      ? undefined
      : 'its command or connection settings changed'
  }
  if (grant.serverFingerprint === undefined || grant.toolFingerprint === undefined) {
    return UNRECORDED
  }
  if (grant.server !== call.server || grant.serverFingerprint !== call.serverFingerprint) {
    return `its server "${call.server}" changed its command or connection settings`
  }
  return grant.toolFingerprint === call.toolFingerprint
    ? undefined
    : 'the server changed its definition (input schema or annotations)'
}

export class GrantBook {
  private readonly bySession = new Map<string, Map<string, Grant>>()

  /** Records a grant; one given before for the same tool or server and the same callers is replaced. */
  give(session: string, grant: Grant): void {
    const grants = this.bySession.get(session) ?? new Map<string, Grant>()
    for (const [id, old] of grants) {
      if (
        old.scope === grant.scope &&
        old.tool === grant.tool &&
        old.server === grant.server &&
        old.coversClient === grant.coversClient
      ) {
        grants.delete(id)
      }
    }
    grants.set(grant.id, grant)
    this.bySession.set(session, grants)
  }

  /**
   * Whether a grant covering `caller` allows `call`. The grants about this call that cover the
   * caller but no longer match what they were given for are dropped and returned as lapses.
   */
  check(
    session: string,
    call: GrantedCall,
    caller: ClientRef,
  ): { granted: boolean; lapses: Lapse[] } {
    const grants = this.bySession.get(session)
    const lapses: Lapse[] = []
    let granted = false
    for (const grant of grants?.values() ?? []) {
      if (grant.coversClient !== null && grant.coversClient !== caller.id) continue
      const about =
        grant.scope === 'server' ? grant.server === call.server : grant.tool === call.tool
      if (!about) continue
      const why = lapseOf(grant, call)
      if (why === undefined) granted = true
      else {
        grants?.delete(grant.id)
        lapses.push({
          grant,
          reason: `${grantName(grant)} lapsed: ${why}; it is asked about again`,
        })
      }
    }
    return { granted, lapses }
  }

  list(session: string): Grant[] {
    return [...(this.bySession.get(session)?.values() ?? [])].sort((a, b) => a.seq - b.seq)
  }

  get(session: string, id: string): Grant | undefined {
    return this.bySession.get(session)?.get(id)
  }

  remove(session: string, id: string): Grant | undefined {
    const grants = this.bySession.get(session)
    const grant = grants?.get(id)
    grants?.delete(id)
    return grant
  }
}

/** A grant as the API shows it. */
export function grantInfo(session: string, grant: Grant): GrantInfo {
  return {
    id: grant.id,
    session,
    scope: grant.scope,
    tool: grant.tool,
    server: grant.server,
    givenBy: grant.givenBy,
    covers: grant.coversClient === null ? 'session' : 'client',
    since: grant.since,
    seq: grant.seq,
  }
}
