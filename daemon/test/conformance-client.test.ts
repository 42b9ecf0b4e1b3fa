import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceClientPath } from '../../e2e/fixtures/paths.js'
import {
  CLIENT_ELICITATION_SCENARIOS,
  installSuiteNode,
  parseConformanceTable,
  runClientScenario,
  tableRow,
  type Revision,
  type ScenarioResult,
} from './conformance-suite.js'
import { cleanup, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'

// The MCP conformance suite's client scenarios about elicitation, with Ferry as the client: the
// suite starts its scenario server and then `e2e/fixtures/conformance-client.ts`, which adds that
// server to a real daemon, calls its tool through the REST API and answers the server's question
// through `POST /api/inputs/{id}/answer`. docs/api.md's client Conformance table is what it must give.

const docsApiPath = fileURLToPath(new URL('../../docs/api.md', import.meta.url))
const HEADING = '## Conformance as an MCP client'

describe('the MCP conformance suite with Ferry as the client', () => {
  let daemon: Daemon
  const results = new Map<Revision, Map<string, ScenarioResult>>()
  const logs: string[] = []

  beforeAll(async () => {
    const [node] = await Promise.all([
      installSuiteNode(),
      (async () => {
        daemon = await startInProcess({ mcpServers: {} })
      })(),
    ])
    const env = {
      FERRY_CONFORMANCE_DAEMON: JSON.stringify({
        url: daemon.info.url,
        token: daemon.info.token,
        configPath: daemon.configPath,
      }),
    }
    for (const { scenario, revision } of CLIENT_ELICITATION_SCENARIOS) {
      const outputDir = await tempDir(`ferry-conformance-client-`)
      const command = `${process.execPath} ${conformanceClientPath}`
      const { result, log } = await runClientScenario(
        node,
        command,
        scenario,
        revision,
        outputDir,
        env,
      )
      logs.push(log)
      if (result === undefined) continue
      const run = results.get(revision) ?? new Map<string, ScenarioResult>()
      run.set(scenario, result)
      results.set(revision, run)
    }
  }, 280_000)

  afterAll(async () => {
    await cleanup()
  })

  it('runs every client elicitation scenario, and each gives what docs/api.md lists', async () => {
    const table = parseConformanceTable(await readFile(docsApiPath, 'utf8'), HEADING)
    const rows = new Map(table.map((row) => [row.scenario, row]))
    const mismatches: string[] = []
    for (const { scenario, revision } of CLIENT_ELICITATION_SCENARIOS) {
      const result = results.get(revision)?.get(scenario)
      expect(result, `${scenario} gave no result:\n${logs.join('\n')}`).toBeDefined()
      const expected = rows.get(scenario)
      if (
        expected === undefined ||
        expected.outcomes[revision] !== result?.outcome ||
        [...(result?.findings ?? [])].sort().join() !== [...expected.findings].sort().join()
      ) {
        mismatches.push(tableRow(scenario, results))
      }
    }
    expect(
      mismatches,
      `rows this run gives:\n${mismatches.join('\n')}\n${logs.join('\n')}`,
    ).toEqual([])
  })

  it('records the question and the defaults a person accepted in the transcript', async () => {
    const events = await daemon.events()
    const requested = events.find((event) => event.type === 'input.requested')
    expect(requested).toMatchObject({ server: 'suite', kind: 'form' })
    const resolved = events.find((event) => event.type === 'input.resolved')
    expect(resolved).toMatchObject({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
      client: { label: 'conformance client' },
    })
  })
})
