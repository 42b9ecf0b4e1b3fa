// Values the docs quote next to the name of the constant that holds them: each quote is checked
// against the constant, and a doc that names such a constant without a row here fails, so a doc
// cannot keep a number the code has changed.

import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SHUTDOWN_DEADLINE_MS } from '../src/daemon/run-daemon.js'
import { UNAUTHENTICATED_IDLE_MS } from '../src/http/connection-guard.js'
import { LOG_MAX_BYTES } from '../src/log.js'
import { PROBE_FLOOR_MS } from '../src/mcp/connect-plan.js'
import { BACKOFF_CAP_MS, BACKOFF_START_MS, STABLE_AFTER_MS } from '../src/mcp/connection.js'
import { UNDECLARED_LIST_BOUND_MS } from '../src/mcp/discovery.js'
import { REMOTE_PING_TIMEOUT_MS } from '../src/mcp/remote-recovery.js'
import { END_REPORT_WAIT_MS } from '../src/mcp/server-process.js'
import { PROXY_READY_MS } from '../../webshell/src/apps/sandbox-frames.js'
import { PATTERN_TIME_LIMIT_MS } from '../../webshell/src/form/pattern-check.js'
import {
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_LINES,
  MARKDOWN_TIME_LIMIT_MS,
} from '../../webshell/src/result/markdown-renderer.js'

const seconds = (ms: number) => `${ms / 1000} s`

/** [doc, the quote as the doc says it (whitespace folded), the constant it names]. */
const QUOTES: [string, string, string][] = [
  ['internals.md', `${BACKOFF_START_MS} ms (\`BACKOFF_START_MS\`)`, 'BACKOFF_START_MS'],
  ['internals.md', `${seconds(BACKOFF_CAP_MS)} (\`BACKOFF_CAP_MS\`)`, 'BACKOFF_CAP_MS'],
  ['internals.md', `${seconds(STABLE_AFTER_MS)} (\`STABLE_AFTER_MS\`)`, 'STABLE_AFTER_MS'],
  ['internals.md', `${END_REPORT_WAIT_MS} ms, \`END_REPORT_WAIT_MS\``, 'END_REPORT_WAIT_MS'],
  [
    'internals.md',
    `${seconds(SHUTDOWN_DEADLINE_MS)} (\`SHUTDOWN_DEADLINE_MS\`)`,
    'SHUTDOWN_DEADLINE_MS',
  ],
  [
    'internals.md',
    `${seconds(UNDECLARED_LIST_BOUND_MS)} of its own (\`UNDECLARED_LIST_BOUND_MS\``,
    'UNDECLARED_LIST_BOUND_MS',
  ],
  ['internals.md', `PROBE_FLOOR_MS (${PROBE_FLOOR_MS})`, 'PROBE_FLOOR_MS'],
  ['internals.md', 'up to `PROBE_FLOOR_MS`', 'PROBE_FLOOR_MS'],
  [
    'internals.md',
    `${seconds(REMOTE_PING_TIMEOUT_MS)}, \`REMOTE_PING_TIMEOUT_MS\``,
    'REMOTE_PING_TIMEOUT_MS',
  ],
  [
    'internals.md',
    `${PATTERN_TIME_LIMIT_MS} ms (\`PATTERN_TIME_LIMIT_MS\`)`,
    'PATTERN_TIME_LIMIT_MS',
  ],
  ['internals.md', `within ${seconds(PROXY_READY_MS)} (\`PROXY_READY_MS\`)`, 'PROXY_READY_MS'],
  // An environment variable of `pnpm bench`, not a constant.
  ['internals.md', '`FERRY_BENCH_FLOOD_MS` sets', 'FERRY_BENCH_FLOOD_MS'],
  [
    'security.md',
    `within ${seconds(UNAUTHENTICATED_IDLE_MS)} of opening, or of its last answer (\`UNAUTHENTICATED_IDLE_MS\`)`,
    'UNAUTHENTICATED_IDLE_MS',
  ],
  ['security.md', `${LOG_MAX_BYTES / 1024 / 1024} MiB (\`LOG_MAX_BYTES\`)`, 'LOG_MAX_BYTES'],
  [
    'internals.md',
    `over ${MARKDOWN_MAX_CHARS / 1000} KB or ${MARKDOWN_MAX_LINES.toLocaleString('en')} lines (\`MARKDOWN_MAX_CHARS\`, \`MARKDOWN_MAX_LINES\`)`,
    'MARKDOWN_MAX_CHARS',
  ],
  ['internals.md', '`MARKDOWN_MAX_LINES`', 'MARKDOWN_MAX_LINES'],
  [
    'internals.md',
    `after ${seconds(MARKDOWN_TIME_LIMIT_MS)} (\`MARKDOWN_TIME_LIMIT_MS\`)`,
    'MARKDOWN_TIME_LIMIT_MS',
  ],
]

const DOCS = [
  'api.md',
  'architecture.md',
  'cli.md',
  'config.md',
  'gateway.md',
  'internals.md',
  'security.md',
]

async function doc(name: string): Promise<string> {
  const text = await readFile(fileURLToPath(new URL(`../../docs/${name}`, import.meta.url)), 'utf8')
  return text.replace(/\s+/g, ' ')
}

describe('values the docs quote', () => {
  it('are the values of the constants they name', async () => {
    for (const [name, quote] of QUOTES) expect(await doc(name), name).toContain(quote)
  })

  it('are all checked: every constant a doc names by its bound or time has a row', async () => {
    const checked = new Set(QUOTES.map(([name, , constant]) => `${name}:${constant}`))
    for (const name of DOCS) {
      const named = [...(await doc(name)).matchAll(/`([A-Z][A-Z_]*_(?:MS|BYTES|LINES|CHARS))`/g)]
      for (const [, constant] of named)
        expect(checked, `${name} names ${constant}`).toContain(`${name}:${constant}`)
    }
  })
})
