// The full-screen `ferry attach` in a real terminal: tmux runs it on a private server, the test
// types with `send-keys` and reads the screen with `capture-pane`.

import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture, waitFor, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { closeTerminal, openTerminal } from './terminal.js'

afterEach(async () => {
  await closeTerminal()
  await cleanup()
})

/** The daemon with a fixture server whose non-read-only tools need a confirmation. */
async function untrustedDaemon(): Promise<Daemon> {
  const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
  await daemon.waitForStatus('fx', 'ready')
  return daemon
}

const promptLine = (screen: string) => screen.split('\n').find((line) => line.startsWith('› '))

describe('ferry attach (full screen)', () => {
  it('calls a tool from the prompt: confirmation, progress bar, result, then Ctrl-C detaches', async () => {
    const daemon = await untrustedDaemon()
    const term = await openTerminal(daemon)
    await term.waitForScreen('the header to say connected', (s) =>
      /^ferry attach · session default \S+ · ● connected/.test(s),
    )

    const typed = '/call mcp_fx_slow {"steps":5,"delayMs":200}'
    await term.type(typed)
    await term.waitForScreen('the typed command', (s) => promptLine(s)?.trim() === `› ${typed}`)
    await term.press('Enter')
    const asked = await term.waitForScreen('the confirmation prompt', (s) =>
      s.includes('Allow mcp_fx_slow on server "fx"?'),
    )
    expect(asked).toContain('arguments: {"steps":5,"delayMs":200}')
    // The WebShell's keys and labels.
    expect(asked).toMatch(
      / a {2}Allow once {4}t {2}Always allow this tool {4}s {2}Always allow this server/,
    )

    await term.press('a')
    await term.waitForScreen('a progress bar', (s) => /[█░]{10,} [1-4]\/5 step [1-4]\/5/.test(s))
    const done = await term.waitForScreen('the result', (s) => /^ {2}done\s*$/m.test(s))
    expect(done).toMatch(
      /^✓ mcp_fx_slow \{"steps":5,"delayMs":200\} +ferry attach \(pid \d+\)[^\n]*\n {2}✓ allowed once by ferry attach \(pid \d+\)\s*\n {2}done/m,
    )
    expect(done).not.toContain('Allow mcp_fx_slow')

    await term.press('C-c')
    await term.waitForScreen('the attach to exit', (s) => s.includes('ferry exited with 0'))
    const sessions = (await (await daemon.api('/sessions')).json()) as { headSeq: number }[]
    expect(sessions[0]?.headSeq).toBeGreaterThan(0)
  })

  it("answers with the keyboard a confirmation raised by another terminal's call", async () => {
    const daemon = await untrustedDaemon()
    const term = await openTerminal(daemon)
    await term.waitForScreen('the header to say connected', (s) => s.includes('● connected'))

    // Not a TTY and no --yes: only an attached client (this screen) can answer.
    const other = daemon.cli(['call', 'mcp_fx_fail'])
    await term.waitForScreen('the confirmation prompt', (s) =>
      /Allow mcp_fx_fail on server "fx"\? Asked by ferry call \(pid \d+\)\./.test(s),
    )
    await term.press('a')
    expect(await other).toMatchObject({ code: 1, stdout: 'tool failed on purpose\n' })
    await term.waitForScreen('the failed call in red', (s) =>
      /^✗ mcp_fx_fail \{\} +ferry call \(pid \d+\)[^\n]*\n {2}✓ allowed once by ferry attach \(pid \d+\)\s*\n {2}tool failed on purpose/m.test(
        s,
      ),
    )

    // Tab completes tool names after /call (the list comes from GET /tools).
    await term.type('/call mcp_fx_ec')
    await waitFor(
      async () => {
        await term.press('Tab')
        const line = promptLine(await term.screen())
        return line?.trimEnd() === '› /call mcp_fx_echo' || undefined
      },
      10_000,
      'Tab to complete mcp_fx_echo',
    )
    await term.type('{"text":"hello from tmux"}')
    await term.press('Enter')
    await term.waitForScreen('the read-only tool to answer without a prompt', (s) =>
      /^✓ mcp_fx_echo \{"text":"hello from tmux"\}[^\n]*\n {2}hello from tmux/m.test(s),
    )
  })

  it('attached read-only, refuses /call and never asks this terminal to confirm', async () => {
    const daemon = await untrustedDaemon()
    const term = await openTerminal(daemon, ['--read-only'])
    await term.waitForScreen('the header to say read-only', (s) =>
      /● connected · read-only/.test(s),
    )
    await term.type('/call mcp_fx_fail')
    await term.press('Enter')
    await term.waitForScreen('the refusal', (s) =>
      s.includes('/call mcp_fx_fail: not available: this terminal attached read-only'),
    )
    // A read-only terminal is no answerer: with nobody to ask, the other call is refused at once.
    const other = await daemon.cli(['call', 'mcp_fx_fail'])
    expect(other).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs a confirmation/) })
    expect(await term.screen()).not.toContain('Allow mcp_fx_fail')
  })
})

describe('ferry call on a terminal', () => {
  it('asks on its own terminal when nobody else is attached, and runs the call once allowed', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const terminal = await openTerminal(
      daemon,
      ['mcp_fx_slow', '{"steps":2,"delayMs":50}'],
      ['call'],
    )
    await terminal.waitForScreen('the question', (screen) =>
      screen.includes('Allow mcp_fx_slow on "fx"?'),
    )
    await terminal.type('a')
    await terminal.press('Enter')
    const screen = await terminal.waitForScreen('the result', (text) =>
      text.includes('ferry exited with 0'),
    )
    expect(screen).toContain('done')
  })
})
