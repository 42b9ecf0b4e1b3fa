import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformanceSignInPath } from '../../e2e/fixtures/paths.js'
import { standInBrowser } from '../../e2e/fixtures/stand-in-browser.js'
import {
  installSuiteNode,
  runClientSuite,
  type ScenarioResult,
  type SpecVersion,
} from './conformance-suite.js'
import { cleanup, tempDir } from './harness.js'
import { startInProcess } from './in-process.js'

// The MCP conformance suite's client auth scenarios, with Ferry as the client: the suite runs
// each suite of them (`auth` at 2025-11-25, `backcompat` at 2025-03-26) with every scenario at
// once, starting its authorization and resource servers and then
// `e2e/fixtures/conformance-sign-in.ts`, which adds the server to a real daemon of the scenario's
// own, runs `ferry login` with a stand-in browser (a `BROWSER` that follows the authorization
// page's redirects) whenever the server waits for a sign-in, and calls its tool. docs/api.md's
// sign-in table is what each must give.

const docsApiPath = fileURLToPath(new URL('../../docs/api.md', import.meta.url))
const HEADING = '### Sign-in scenarios'
/** The suite's client suites, each with the revision whose wire its scenarios run on. */
const SUITES = [
  { suite: 'auth', version: '2025-11-25' },
  { suite: 'backcompat', version: '2025-03-26' },
] as const

interface Row {
  scenario: string
  version: SpecVersion
  outcome: string
  findings: string[]
}

/** `| \`auth/x\` | 2025-11-25 | pass | checks | how |` rows under the sign-in heading. */
function signInTable(markdown: string): Row[] {
  const section = markdown.split(HEADING)[1]?.split(/^##/m)[0] ?? ''
  return section.split('\n').flatMap((line) => {
    const cells = line.split('|').map((cell) => cell.trim())
    const scenario = /^`(auth\/[a-z0-9-]+)`$/.exec(cells[1] ?? '')?.[1]
    if (cells.length !== 7 || scenario === undefined) return []
    return [
      {
        scenario,
        version: cells[2] as SpecVersion,
        outcome: cells[3] ?? '',
        findings: [...(cells[4] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] as string),
      },
    ]
  })
}

describe('the MCP conformance suite’s sign-in scenarios with Ferry as the client', () => {
  let rows: Row[] = []
  const results = new Map<string, ScenarioResult | undefined>()
  const logs = new Map<string, string>()
  /** What the suite ran, whether or not the table has it. */
  const suiteRan: string[] = []

  beforeAll(async () => {
    rows = signInTable(await readFile(docsApiPath, 'utf8'))
    const node = await installSuiteNode()
    const browser = await standInBrowser(await tempDir('ferry-browser-'))
    await Promise.all(
      SUITES.map(async ({ suite, version }) => {
        const daemons: Record<string, object> = {}
        for (const row of rows.filter((row) => row.version === version)) {
          const daemon = await startInProcess({ mcpServers: {} })
          daemons[row.scenario] = {
            url: daemon.info.url,
            token: daemon.info.token,
            configPath: daemon.configPath,
            stateDir: daemon.stateDir,
          }
        }
        const ran = await runClientSuite(
          node,
          `${process.execPath} ${conformanceSignInPath}`,
          suite,
          version,
          await tempDir('ferry-conformance-auth-'),
          { FERRY_CONFORMANCE_DAEMONS: JSON.stringify({ daemons, browser }) },
        )
        for (const scenario of Object.keys(daemons)) {
          const key = `${scenario} ${version}`
          const own = ran.results.get(scenario)
          results.set(key, own?.result)
          logs.set(key, own?.log ?? `no result for ${scenario}; the suite said:\n${ran.log}`)
        }
        for (const scenario of ran.results.keys()) suiteRan.push(`${scenario} ${version}`)
      }),
    )
  }, 280_000)

  afterAll(cleanup)

  it('runs every sign-in scenario of 2025-11-25 and 2025-03-26, and each gives what docs/api.md lists', () => {
    expect(rows.map((row) => `${row.scenario} ${row.version}`).sort()).toEqual(
      [
        'auth/metadata-default',
        'auth/metadata-var1',
        'auth/metadata-var2',
        'auth/metadata-var3',
        'auth/basic-cimd',
        'auth/scope-from-www-authenticate',
        'auth/scope-from-scopes-supported',
        'auth/scope-omitted-when-undefined',
        'auth/scope-step-up',
        'auth/scope-retry-limit',
        'auth/token-endpoint-auth-basic',
        'auth/token-endpoint-auth-post',
        'auth/token-endpoint-auth-none',
        'auth/pre-registration',
      ]
        .map((scenario) => `${scenario} 2025-11-25`)
        .concat([
          'auth/2025-03-26-oauth-metadata-backcompat 2025-03-26',
          'auth/2025-03-26-oauth-endpoint-fallback 2025-03-26',
        ])
        .sort(),
    )
    expect(suiteRan.sort()).toEqual(rows.map((row) => `${row.scenario} ${row.version}`).sort())
    const mismatches = rows.flatMap((row) => {
      const key = `${row.scenario} ${row.version}`
      const result = results.get(key)
      const same =
        result?.outcome === row.outcome &&
        [...result.findings].sort().join() === [...row.findings].sort().join()
      if (same) return []
      const got =
        result === undefined ? 'no result' : `${result.outcome} ${result.findings.join(', ')}`
      return [`${key}: ${got}\n${logs.get(key) ?? ''}`]
    })
    expect(mismatches, mismatches.join('\n\n')).toEqual([])
  })
})
