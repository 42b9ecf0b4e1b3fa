import { afterEach, describe, expect, it } from 'vitest'
import {
  cleanup,
  countLines,
  fixture,
  rawLegacyServerPath,
  readJsonLines,
  tempDir,
  waitFor,
} from './harness.js'
import { LOADED_PROBE_CAPS, LOADED_READY_MS, startInProcess } from './in-process.js'
import { createFixtureServer } from '../../e2e/fixtures/mcp-server.js'
import { PROBE_CAPS, PROBE_FLOOR_MS } from '../src/mcp/connect-plan.js'
import { CLOSE_STEP_MS } from '../src/mcp/server-process.js'

afterEach(cleanup)

const MODERN_ENVELOPE_KEY = 'io.modelcontextprotocol/protocolVersion'

describe('version negotiation', () => {
  it('connects a modern-only server configured "auto" through server/discover and sends the modern envelope', async () => {
    const dir = await tempDir()
    const record = `${dir}/record.jsonl`
    const daemon = await startInProcess({
      mcpServers: {
        modern: fixture(['--era', 'modern', '--record', record], { versionNegotiation: 'auto' }),
      },
    })
    const server = await daemon.waitForStatus('modern', 'ready')
    expect(server).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      negotiation: 'auto',
    })

    const tools = await daemon.cli(['tools', '--json'])
    expect(tools.code).toBe(0)
    expect(JSON.parse(tools.stdout).map((t: { name: string }) => t.name)).toContain(
      'mcp_modern_echo',
    )
    const call = await daemon.cli(['call', 'mcp_modern_echo', '{"text":"over 2026"}'])
    expect(call).toMatchObject({ code: 0, stdout: 'over 2026\n' })

    const lines = await readJsonLines<{ method: string; envelope: Record<string, unknown> | null }>(
      record,
    )
    const callLine = lines.find((line) => line.method === 'tools/call')
    expect(callLine?.envelope?.[MODERN_ENVELOPE_KEY]).toBe('2026-07-28')
    expect(callLine?.envelope?.['io.modelcontextprotocol/clientInfo']).toMatchObject({
      name: 'ferry',
    })
    for (const line of lines) expect(line.envelope?.[MODERN_ENVELOPE_KEY]).toBe('2026-07-28')
  })

  it('marks a modern-only server configured "legacy" failed with advice to set versionNegotiation auto', async () => {
    const daemon = await startInProcess({ mcpServers: { modern: fixture(['--era', 'modern']) } })
    const server = await daemon.waitForStatus('modern', 'failed')
    expect(server.error).toContain('"versionNegotiation": "auto"')
    const listed = await daemon.cli(['servers'])
    expect(listed.stdout).toMatch(/modern\s+failed/)
  })

  it('falls back to initialize for a legacy-only server configured "auto"', async () => {
    const dir = await tempDir()
    const daemon = await startInProcess({
      mcpServers: {
        old: fixture(['--era', 'legacy', '--spawn-log', `${dir}/spawns`], {
          versionNegotiation: 'auto',
        }),
      },
    })
    expect(await daemon.waitForStatus('old', 'ready')).toMatchObject({
      era: 'legacy',
      protocolVersion: '2025-11-25',
    })
    expect(await countLines(`${dir}/spawns`)).toBe(2)
    expect((await daemon.cli(['call', 'mcp_old_echo', '{"text":"still here"}'])).stdout).toBe(
      'still here\n',
    )
  })

  it('falls back within its budget when a server never answers unknown methods', async () => {
    // A budget a loaded machine's spawn and initialize fit in, after the probe's second.
    const BUDGET_MS = 30_000
    const daemon = await startInProcess(
      {
        mcpServers: {
          silent: {
            command: process.execPath,
            args: [rawLegacyServerPath, '--silent-unknown'],
            versionNegotiation: 'auto',
            discoveryTimeoutMs: BUDGET_MS,
          },
        },
      },
      // The shortest probe there is, so the budget leaves the legacy connect ample time.
      { probeCaps: { ...PROBE_CAPS, stdio: PROBE_FLOOR_MS } },
    )
    const started = Date.now()
    const server = await daemon.waitForStatus('silent', 'ready', BUDGET_MS)
    expect(server.era).toBe('legacy')
    // The probe timed out, then the legacy connect: all inside the budget.
    expect(Date.now() - started).toBeLessThan(BUDGET_MS)
  })

  it('becomes ready after its tools when a legacy server ignores a list it did not declare, and logs the skipped list', async () => {
    const dir = await tempDir()
    const daemon = await startInProcess({
      mcpServers: {
        partial: {
          command: process.execPath,
          args: [
            rawLegacyServerPath,
            ...['--declare', 'tools,prompts', '--ignore-undeclared', '--record', `${dir}/record`],
          ],
          // The tolerant resources/list once waited for this whole budget, then failed the server.
          discoveryTimeoutMs: 30_000,
          trust: true,
        },
      },
    })
    const ready = await daemon.waitForStatus('partial', 'ready', 20_000)
    expect(ready.toolCount).toBe(1)
    // Ready came before the unanswered listing gave up: its skip is logged only afterwards.
    const skipped = await waitFor(
      async () =>
        (await readJsonLines(`${daemon.stateDir}/daemon.log`)).find(
          (line) => line.kind === 'server.list_skipped' && line.server === 'partial',
        ),
      10_000,
      'the skipped listing',
    )
    expect(skipped).toMatchObject({ list: 'resources', error: expect.stringContaining('2000 ms') })
    const log = await readJsonLines(`${daemon.stateDir}/daemon.log`)
    const at = (match: (line: Record<string, unknown>) => boolean) => log.findIndex(match)
    expect(at((l) => l.kind === 'server.status' && l.status === 'ready')).toBeLessThan(
      at((l) => l.kind === 'server.list_skipped'),
    )
    expect(log).toContainEqual(
      expect.objectContaining({
        kind: 'server.listed',
        server: 'partial',
        list: 'prompts',
        count: 1,
      }),
    )
    const asked = await readJsonLines<{ method: string; ignored?: boolean }>(`${dir}/record`)
    expect(asked).toContainEqual(
      expect.objectContaining({ method: 'resources/list', ignored: true }),
    )
    expect((await daemon.cli(['call', 'mcp_partial_echo', '{"text":"ready"}'])).stdout).toBe(
      'ready\n',
    )
  })

  for (const negotiation of ['legacy', 'auto'] as const) {
    it(`fails a server that never speaks within its discoveryTimeoutMs (${negotiation})`, async () => {
      const daemon = await startInProcess({
        mcpServers: {
          mute: {
            command: 'sleep',
            args: ['30'],
            versionNegotiation: negotiation,
            discoveryTimeoutMs: 1000,
          },
        },
      })
      const server = await daemon.waitForStatus('mute', 'failed', 10_000)
      expect(server.error).toContain('no answer within 1000 ms')
      // Timed by the daemon's own status events, so a slow poll here does not count. The attempt
      // ends by closing the mute process: its stdin, then SIGTERM once a close step has passed.
      // The slack is for a loaded machine; a server left waiting for its 30 s exit would fail.
      const at = async (state: string) =>
        Date.parse(
          (
            await daemon.waitForEvent(
              (e) => e.type === 'server.status' && e.server === 'mute' && e.status === state,
            )
          ).time,
        )
      const took = (await at('failed')) - (await at('connecting'))
      expect(took).toBeGreaterThanOrEqual(1000)
      expect(took).toBeLessThan(1000 + CLOSE_STEP_MS + 2500)
    })
  }

  it('fails a server within its discoveryTimeoutMs when the handshake never settles', async () => {
    // The server answers `initialize`; the daemon's `notifications/initialized` is never written
    // out, as a stdio send waits forever for a pipe to drain once its end was closed under it.
    const daemon = await startInProcess(
      {
        mcpServers: {
          stalled: {
            command: 'served-in-memory',
            versionNegotiation: 'legacy',
            discoveryTimeoutMs: 500,
          },
        },
      },
      {
        inMemory: { stalled: () => createFixtureServer({ name: 'stalled' }) },
        wire: {
          stalled: (transport) => {
            const send = transport.send.bind(transport)
            transport.send = (message, options) =>
              'method' in message && message.method === 'notifications/initialized'
                ? new Promise(() => {})
                : send(message, options)
            return transport
          },
        },
      },
    )
    const server = await daemon.waitForStatus('stalled', 'failed')
    expect(server.error).toContain('no answer within 500 ms')
  })

  it('skips the probe when the budget cannot cover it, proved by a single spawn', async () => {
    const dir = await tempDir()
    const daemon = await startInProcess({
      mcpServers: {
        tight: fixture(['--era', 'dual', '--spawn-log', `${dir}/spawns`], {
          versionNegotiation: 'auto',
          // Just under twice the probe floor: the probe cannot fit, so it is skipped.
          discoveryTimeoutMs: 1999,
        }),
      },
    })
    // On a loaded machine the 2 s budget may not even cover a legacy start: either way, one spawn.
    // The first attempt's outcome is read from the transcript, which keeps it; a poll of the
    // status could miss a failure that the next attempt's `connecting` replaced.
    const settled = await waitFor(
      async () =>
        (await daemon.events()).find(
          (e) =>
            e.type === 'server.status' &&
            e.server === 'tight' &&
            (e.status === 'ready' || e.status === 'failed'),
        ),
      20_000,
      'tight to settle',
    ).catch(async (error: unknown) => {
      const seen = (await daemon.events()).filter((e) => e.type === 'server.status')
      throw new Error(`${String(error)}; status events: ${JSON.stringify(seen)}`)
    })
    const spawns = await countLines(`${dir}/spawns`)
    if (settled.type === 'server.status' && settled.status === 'ready') {
      const server = (await daemon.servers()).find((s) => s.name === 'tight')
      expect(server?.era).toBe('legacy')
      expect(spawns).toBe(1)
    } else {
      // Given up before its one server had started far enough to log itself; never a second.
      expect(spawns).toBeLessThanOrEqual(1)
    }
  })

  it('reconnects a remembered auto server with one spawn', async () => {
    const dir = await tempDir()
    const settings = {
      mcpServers: {
        known: fixture(['--era', 'modern', '--spawn-log', `${dir}/spawns`], {
          versionNegotiation: 'auto',
        }),
      },
    }
    // A probe that a loaded machine's spawn of the sibling fits in: a probe that timed out would
    // be taken as a legacy answer, and the first start would spawn more than twice.
    const first = await startInProcess(settings, { probeCaps: LOADED_PROBE_CAPS })
    await first.waitForStatus('known', 'ready', LOADED_READY_MS)
    expect(await countLines(`${dir}/spawns`)).toBe(2)
    await first.stop()

    const second = await startInProcess(settings, { stateDir: first.stateDir })
    expect(await second.waitForStatus('known', 'ready', LOADED_READY_MS)).toMatchObject({
      era: 'modern',
    })
    expect(await countLines(`${dir}/spawns`)).toBe(3)
    expect((await second.cli(['call', 'mcp_known_echo', '{"text":"again"}'])).stdout).toBe(
      'again\n',
    )
  })
})
