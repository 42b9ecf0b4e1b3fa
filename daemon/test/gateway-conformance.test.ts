import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceServerPath } from '../../e2e/fixtures/paths.js'
import {
  bearerForwarder,
  docsGatewayPath,
  installSuiteNode,
  parseConformanceTable,
  REVISIONS,
  runRevision,
  tableRow,
  type Revision,
  type ScenarioResult,
} from './conformance-suite.js'
import { cleanup, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

// The MCP conformance suite's server scenarios, run against `/mcp` through an `--unprefixed`
// token of one trusted server that offers what the scenarios call, once per spec revision on
// that revision's wire. docs/gateway.md's Conformance table is what the run must give.

describe('the MCP conformance suite against the gateway', () => {
  let daemon: Daemon
  const forwarders: Array<() => Promise<void>> = []
  const results = new Map<Revision, Map<string, ScenarioResult>>()
  const logs: string[] = []

  beforeAll(async () => {
    const [node] = await Promise.all([
      installSuiteNode(),
      (async () => {
        daemon = await startInProcess({
          // The same server twice: reached in the 2025 era for that revision's scenarios, and in
          // the 2026-07-28 era (it speaks both) for that revision's, as a client of that era would.
          mcpServers: {
            conformance: { command: process.execPath, args: [conformanceServerPath], trust: true },
            'conformance-modern': {
              command: process.execPath,
              args: [conformanceServerPath],
              trust: true,
              versionNegotiation: 'auto',
              // The suite's client gives the roots its scenarios ask for (see docs/config.md).
              roots: 'client',
            },
          },
          // The Tasks scenarios' shortest long-running call takes a second: it always becomes a
          // task, and a quick call has most of that second to answer on a loaded machine.
          gateway: { taskAfterMs: 900 },
        })
        expect(await daemon.waitForStatus('conformance', 'ready')).toMatchObject({ era: 'legacy' })
        expect(await daemon.waitForStatus('conformance-modern', 'ready')).toMatchObject({
          era: 'modern',
        })
      })(),
    ])
    // The two revisions run at once: most of each run is waiting on the scenarios' own clocks.
    await Promise.all(
      REVISIONS.map(async (revision) => {
        const server = revision === '2025-11-25' ? 'conformance' : 'conformance-modern'
        const created = await daemon.cli([
          'gateway',
          'token',
          'create',
          `suite-${revision}`,
          '--servers',
          server,
          '--unprefixed',
        ])
        expect(created.code, created.stderr).toBe(0)
        const forwarder = await bearerForwarder(
          new URL('mcp', daemon.info.url).href,
          created.stdout.trim(),
        )
        forwarders.push(forwarder.close)
        const outputDir = await tempDir(`ferry-conformance-${revision}-`)
        const { results: run, log } = await runRevision(node, forwarder.url, revision, outputDir)
        results.set(revision, run)
        logs.push(log)
      }),
    )
  }, 320_000)

  afterAll(async () => {
    for (const close of forwarders) await close()
    await cleanup()
  })

  it('runs every scenario of both revisions, and each gives what docs/gateway.md lists', async () => {
    const table = parseConformanceTable(await readFile(docsGatewayPath, 'utf8'))
    expect(table.length).toBeGreaterThan(0)
    const listed = new Set(table.map((row) => row.scenario))
    const mismatches: string[] = []
    const changed = new Set<string>()
    for (const revision of REVISIONS) {
      const run = results.get(revision) ?? new Map<string, ScenarioResult>()
      // Both requirement sets name dozens of scenarios; a run that produced none is broken.
      expect(run.size, `no scenarios ran for ${revision}:\n${logs.join('\n')}`).toBeGreaterThan(20)
      for (const scenario of run.keys()) {
        if (listed.has(scenario)) continue
        mismatches.push(`${scenario} (${revision}) is not in the table`)
        changed.add(scenario)
      }
      for (const row of table) {
        const expected = row.outcomes[revision] ?? 'not run'
        const actual = run.get(row.scenario)
        const got = actual?.outcome ?? 'not run'
        const findings = actual?.findings ?? []
        if (got !== expected || findings.some((finding) => !row.findings.includes(finding))) {
          changed.add(row.scenario)
        }
        if (got !== expected) {
          mismatches.push(
            `${row.scenario} ${revision}: listed ${expected}, got ${got} (${findings.join(', ')})`,
          )
        }
        for (const finding of findings) {
          if (!row.findings.includes(finding)) {
            mismatches.push(
              `${row.scenario} ${revision}: ${finding} fails or warns, and is not listed`,
            )
          }
        }
      }
    }
    // A listed check that neither revision reports any more has been fixed: the table must say so.
    for (const row of table) {
      const reported = REVISIONS.flatMap(
        (revision) => results.get(revision)?.get(row.scenario)?.findings ?? [],
      )
      for (const finding of row.findings) {
        if (!reported.includes(finding)) {
          mismatches.push(`${row.scenario}: ${finding} is listed, but passes now`)
          changed.add(row.scenario)
        }
      }
    }
    // What the run gave, as table rows, so the table can be brought up to date.
    for (const scenario of changed) mismatches.push(`run gave: ${tableRow(scenario, results)}`)
    expect(mismatches, mismatches.join('\n')).toEqual([])
  })

  it('gives a reason in the table for every scenario that does not pass', async () => {
    const table = parseConformanceTable(await readFile(docsGatewayPath, 'utf8'))
    for (const row of table) {
      const passes = Object.values(row.outcomes).every((o) => o === null || o === 'pass')
      if (!passes) expect(row.reason, `${row.scenario} needs a reason`).not.toBe('')
    }
  })

  it('lists and calls the fixture’s tools under their own names through the unprefixed token', () => {
    for (const revision of REVISIONS) {
      // The scenario finds `json_schema_2020_12_tool` by that name in tools/list.
      expect(results.get(revision)?.get('json-schema-2020-12')?.outcome).toBe('pass')
      expect(results.get(revision)?.get('tools-call-simple-text')?.outcome).toBe('pass')
    }
  })
})
