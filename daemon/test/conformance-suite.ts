// Runs the MCP conformance suite (`@modelcontextprotocol/conformance server`) against a URL: the
// Node 22 it needs (scripts/suite-node.mjs); a forwarder that adds the bearer token the suite
// cannot send; each scenario's outcome read from its `checks.json`; and the table of expected
// outcomes in docs/gateway.md that the run is held to.

import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { request, createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'
import { waitFor } from './harness.js'

/** The spec revisions whose required scenarios run, each on its own wire. */
export const REVISIONS = ['2025-11-25', '2026-07-28'] as const
export type Revision = (typeof REVISIONS)[number]

export type Outcome = 'pass' | 'fail' | 'warning' | 'skipped'

export interface ScenarioResult {
  outcome: Outcome
  /** The ids of the checks that failed or warned, for the failure message. */
  findings: string[]
}

export const docsGatewayPath = fileURLToPath(new URL('../../docs/gateway.md', import.meta.url))

const suiteCli = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
)

function run(
  command: string,
  args: string[],
  timeoutMs: number,
  env: Record<string, string> = {},
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 99
        resolve({ code, out: `${stdout}${stderr}` })
      },
    )
  })
}

const suiteNodeScript = fileURLToPath(new URL('../../scripts/suite-node.mjs', import.meta.url))

/**
 * The path of Node 22, from `scripts/suite-node.mjs`: the test command installed it before the
 * tests, or the first file of the run to ask installs it now, and any other waits for that
 * install's outcome.
 */
export async function installSuiteNode(): Promise<string> {
  const dir = join(inject('runDir'), 'suite-node')
  const outcome = join(dir, 'outcome.json')
  const installing = await mkdir(dir).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false
      throw error
    },
  )
  if (installing) {
    const { code, out } = await run(process.execPath, [suiteNodeScript], 180_000)
    await writeFile(outcome, JSON.stringify({ code, out }))
  }
  const { code, out } = await waitFor(
    async () =>
      (JSON.parse(await readFile(outcome, 'utf8').catch(() => 'null')) as {
        code: number
        out: string
      } | null) ?? undefined,
    190_000,
    'the install of the Node the conformance suite runs on',
  )
  if (code !== 0) throw new Error(`scripts/suite-node.mjs failed:\n${out}`)
  // Its last line; npm's warnings, if any, come before it.
  return out.trim().split('\n').at(-1) ?? ''
}

/**
 * A local URL that forwards every request to `target` with `Authorization: Bearer <token>`
 * added: the suite has no option to send a header. Everything else passes unchanged, except a
 * Host naming the forwarder itself, which becomes the target's, so a forged Host still arrives
 * forged.
 */
export async function bearerForwarder(
  target: string,
  token: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target)
  const server = createServer((incoming, outgoing) => {
    const own = `127.0.0.1:${(server.address() as AddressInfo).port}`
    const headers: IncomingHttpHeaders = { ...incoming.headers, authorization: `Bearer ${token}` }
    if (headers.host === own) headers.host = upstream.host
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: upstream.pathname,
        method: incoming.method,
        headers,
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    forwarded.on('error', () => outgoing.destroy())
    outgoing.on('close', () => forwarded.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

interface Check {
  id: string
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO'
  errorMessage?: string
}

/** The synthetic checks the suite adds to every scenario that exchanged messages. */
const WIRE_CHECK = /^wire-schema-/

export function outcomeOf(checks: Check[]): ScenarioResult {
  const failed = checks.filter((check) => check.status === 'FAILURE').map((check) => check.id)
  const warned = checks.filter((check) => check.status === 'WARNING').map((check) => check.id)
  if (failed.length > 0) return { outcome: 'fail', findings: failed }
  if (warned.length > 0) return { outcome: 'warning', findings: warned }
  const own = checks.filter((check) => check.status === 'SUCCESS' && !WIRE_CHECK.test(check.id))
  return { outcome: own.length > 0 ? 'pass' : 'skipped', findings: [] }
}

/** Runs one revision's required (and reported, unscored) scenarios against `url`. */
export async function runRevision(
  node: string,
  url: string,
  revision: Revision,
  outputDir: string,
): Promise<{ results: Map<string, ScenarioResult>; log: string }> {
  const suite = (args: string[], dir: string) =>
    run(
      node,
      [suiteCli, 'server', '--url', url, ...args, '--output-dir', dir],
      // A hang guard: 15 s on a quiet machine, several times that beside a second copy of the suite.
      150_000,
    )
  const { out } = await suite(['--requirements', revision], outputDir)
  const checks = await readChecks(outputDir)
  let log = out
  for (const [scenario, ran] of checks) {
    if (!ran.some(missedWindow)) continue
    const again = join(outputDir, `again-${scenario}`)
    await mkdir(again)
    log += (await suite(['--scenario', scenario, '--spec-version', revision], again)).out
    const second = (await readChecks(again)).get(scenario)
    if (second !== undefined) checks.set(scenario, second)
  }
  const results = new Map<string, ScenarioResult>()
  for (const [scenario, ran] of checks) results.set(scenario, outcomeOf(ran))
  return { results, log }
}

/** Each scenario's checks, from the `checks.json` the suite wrote for it under `dir`. */
async function readChecks(dir: string): Promise<Map<string, Check[]>> {
  const checks = new Map<string, Check[]>()
  for (const entry of await readdir(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1]
    if (scenario === undefined) continue
    checks.set(
      scenario,
      JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8')) as Check[],
    )
  }
  return checks
}

/**
 * What the suite says when a response stream it reads brought no frame within a window of its own
 * (half a second to a second and a half, by its clock, whatever the machine's load). A check that
 * failed that way measured how busy the machine was; its scenario runs once more, alone, and that
 * run is the one that counts. A server that never sends the frame fails the same way again.
 */
const NO_FRAME_IN_WINDOW = [
  'Failed to receive progressive stream chunk',
  'Logging target endpoint context dropped',
  'Failed to open or receive frames from the subscriptions/listen stream',
  'Strict subscription filtering line failed to return',
  'Failed to open stream line or tracking frames are missing',
]

function missedWindow(check: Check): boolean {
  return (
    (check.status === 'FAILURE' || check.status === 'WARNING') &&
    NO_FRAME_IN_WINDOW.some((start) => check.errorMessage?.startsWith(start) === true)
  )
}

export interface ExpectedRow {
  scenario: string
  outcomes: Record<Revision, Outcome | null>
  /** The checks that fail or warn, in whichever revision. */
  findings: string[]
  reason: string
}

/**
 * The rows of the table under `heading` ("## Conformance" in docs/gateway.md):
 * `| scenario | 2025-11-25 | 2026-07-28 | checks that fail or warn | why |`, with `—` where a
 * revision does not run it.
 */
export function parseConformanceTable(markdown: string, heading = '## Conformance'): ExpectedRow[] {
  const section = markdown.split(new RegExp(`^${heading}$`, 'm'))[1]?.split(/^## /m)[0] ?? ''
  const rows: ExpectedRow[] = []
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    if (cells.length !== 7 || !/^`[a-z0-9-]+`$/.test(cells[1] ?? '')) continue
    const outcome = (cell: string | undefined): Outcome | null => {
      if (cell === '—') return null
      if (cell === 'pass' || cell === 'fail' || cell === 'warning' || cell === 'skipped')
        return cell
      throw new Error(`${heading} table: unknown outcome "${cell}" in: ${line}`)
    }
    rows.push({
      scenario: (cells[1] as string).slice(1, -1),
      outcomes: { '2025-11-25': outcome(cells[2]), '2026-07-28': outcome(cells[3]) },
      findings: [...(cells[4] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] as string),
      reason: cells[5] ?? '',
    })
  }
  return rows
}

/** The table row a run gives for `scenario`, with the reason left for a person to write. */
export function tableRow(
  scenario: string,
  results: ReadonlyMap<Revision, ReadonlyMap<string, ScenarioResult>>,
): string {
  const found = REVISIONS.map((revision) => results.get(revision)?.get(scenario))
  const findings = [...new Set(found.flatMap((result) => result?.findings ?? []))]
  const outcomes = found.map((result) => result?.outcome ?? '—')
  return `| \`${scenario}\` | ${outcomes.join(' | ')} | ${findings.map((id) => `\`${id}\``).join(', ')} | |`
}

/** The suite's client scenarios about elicitation, with the revision whose wire each runs on. */
export const CLIENT_ELICITATION_SCENARIOS = [
  { scenario: 'elicitation-sep1034-client-defaults', revision: '2025-11-25' },
] as const

/** The spec versions a client scenario can be run at (`--spec-version`). */
export type SpecVersion = Revision | '2025-03-26'

/**
 * The suite in client mode: the scenarios `selection` names (`--scenario x` or `--suite y`) at
 * `revision`, each with `command` (the server URL appended) as its client and `env` added to the
 * client's environment, each client given 60 s.
 */
function runClient(
  node: string,
  command: string,
  selection: string[],
  revision: SpecVersion,
  outputDir: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  return run(
    node,
    [
      suiteCli,
      'client',
      '--command',
      command,
      ...selection,
      '--spec-version',
      revision,
      '--output-dir',
      outputDir,
      '--timeout',
      '60000',
    ],
    // A hang guard: the suite's scenarios run at once, so one client's 60 s bounds the run.
    150_000,
    env,
  )
}

/**
 * Runs one client scenario, starting `command` (the server URL appended) as the client, with
 * `env` added to the client's environment.
 */
export async function runClientScenario(
  node: string,
  command: string,
  scenario: string,
  revision: SpecVersion,
  outputDir: string,
  env: Record<string, string> = {},
): Promise<{ result: ScenarioResult | undefined; log: string }> {
  const { out } = await runClient(node, command, ['--scenario', scenario], revision, outputDir, env)
  // A scenario named `auth/x` writes its results under `auth-x-<time>` or `auth/x-<time>`.
  const prefix = scenario.replace('/', '-')
  for (const dir of await readdir(outputDir, { recursive: true })) {
    const name = dir.replace('/', '-')
    if (!name.startsWith(`${prefix}-`) || name.endsWith('.json')) continue
    const checks = JSON.parse(
      await readFile(join(outputDir, dir, 'checks.json'), 'utf8').catch(() => 'null'),
    ) as Check[] | null
    if (checks === null) continue
    return { result: outcomeOf(checks), log: out }
  }
  return { result: undefined, log: out }
}

/**
 * Runs one of the suite's client suites (`--suite <suite>`) at `revision`: the suite starts every
 * scenario of it at once, each with `command` (the scenario's server URL appended) as its client,
 * which finds the scenario's name in `MCP_CONFORMANCE_SCENARIO`. Gives each scenario's outcome,
 * with what its client printed, by the scenario's name.
 */
export async function runClientSuite(
  node: string,
  command: string,
  suite: string,
  revision: SpecVersion,
  outputDir: string,
  env: Record<string, string> = {},
): Promise<{ results: Map<string, { result: ScenarioResult; log: string }>; log: string }> {
  const { out } = await runClient(node, command, ['--suite', suite], revision, outputDir, env)
  // Each scenario `auth/x` writes its results under `auth/x-<time>`.
  const results = new Map<string, { result: ScenarioResult; log: string }>()
  for (const dir of await readdir(outputDir, { recursive: true })) {
    const scenario = /^(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(dir)?.[1]
    if (scenario === undefined) continue
    const read = (file: string) => readFile(join(outputDir, dir, file), 'utf8').catch(() => '')
    const checks = JSON.parse((await read('checks.json')) || 'null') as Check[] | null
    if (checks === null) continue
    const log = `client stdout:\n${await read('stdout.txt')}\nclient stderr:\n${await read('stderr.txt')}`
    results.set(scenario, { result: outcomeOf(checks), log })
  }
  return { results, log: out }
}
