// Text from a hostile server reaching a person's terminal: every command that prints server or
// transcript text runs on a real pseudo-terminal, and no ESC or C1 control it wrote may come from
// the server; `--json` stays JSON equal to what the server sent.

import { afterEach, describe, expect, it } from 'vitest'
import { HOSTILE_TEXT, HOSTILE_TITLE } from '../../e2e/fixtures/hostile-tools.js'
import type { ToolInfo, TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import {
  closeTerminal,
  controlCharacters,
  openTerminal,
  runInPty,
  startInPty,
  stopPtys,
} from './terminal.js'

afterEach(async () => {
  stopPtys()
  await closeTerminal()
  await cleanup()
})

/** A server whose configured name is itself an escape sequence (settings can come from a repository). */
const SERVER = `fx\u001b]0;${HOSTILE_TITLE}\u0007`
/** How the CLI shows SERVER. */
const SERVER_SHOWN = `fx␛]0;${HOSTILE_TITLE}␇`
/** A caller's label: any client of the API names itself. */
const LABEL = `api\u001b]0;${HOSTILE_TITLE}\u0007`
const LABEL_SHOWN = `api␛]0;${HOSTILE_TITLE}␇`
/** How the CLI shows the start of HOSTILE_TEXT. */
const HOSTILE_SHOWN = `hostile: ␛]52;c;cHduZWQ=␇ ␛]0;${HOSTILE_TITLE}␇ ␛]8;;https://evil.example/␛\\link`

async function hostileDaemon(): Promise<{ daemon: Daemon; tool: string; fail: string }> {
  const daemon = await startInProcess({
    mcpServers: { [SERVER]: fixture(['--hostile'], { trust: false }) },
  })
  await daemon.waitForStatus(SERVER, 'ready')
  const tools = (await (await daemon.api('/tools')).json()) as ToolInfo[]
  const name = (tool: string) => tools.find((entry) => entry.tool === tool)?.name ?? tool
  return { daemon, tool: name('hostile'), fail: name('fail') }
}

/** Calls `tool` through the API under the hostile LABEL; resolves once the call has ended. */
async function callAsLabel(daemon: Daemon, tool: string): Promise<void> {
  const response = await daemon.api('/call', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tool, client: { kind: 'api', label: LABEL } }),
  })
  expect(response.status).toBe(200)
  await response.text()
}

/** What a terminal showed, with the pseudo-terminal's CR LF line ends as LF. */
function shown(bytes: Buffer): string {
  return bytes.toString('utf8').replaceAll('\r\n', '\n')
}

describe('text from servers on a terminal', () => {
  it('ferry call shows the control characters of a result and its progress visibly', async () => {
    const { daemon, tool } = await hostileDaemon()
    const run = await runInPty(daemon, ['call', tool])
    expect(run.code).toBe(0)
    expect(controlCharacters(run.bytes)).toEqual([])
    const text = shown(run.bytes)
    expect(text).toContain(`… 1/2 ${HOSTILE_SHOWN}`)
    expect(text).toContain(`${HOSTILE_SHOWN}␛]8;;␛\\ ␛[2J ␛P+q544e␛\\ ␛[31mred␛[0m`)
    expect(text).toContain('\\u009b32mc1 \\u009d0;c1-title\\u009c bell␇ back␈␡ \\u202eevil\\u202c')
    expect(text).toContain('cr␍end\n')
  })

  it('ferry call --json prints JSON with the control characters escaped, equal to the result', async () => {
    const { daemon, tool } = await hostileDaemon()
    const run = await runInPty(daemon, ['call', '--json', tool])
    expect(run.code).toBe(0)
    expect(controlCharacters(run.bytes)).toEqual([])
    const lines = shown(run.bytes).split('\n')
    const json = lines.find((line) => line.startsWith('{')) ?? ''
    expect(JSON.parse(json)).toEqual({ content: [{ type: 'text', text: HOSTILE_TEXT }] })
  })

  it("shows a server's error message visibly when a call fails", async () => {
    const { daemon, tool } = await hostileDaemon()
    const run = await runInPty(daemon, ['call', tool, '{"fail":true}'])
    expect(run.code).toBe(2)
    expect(controlCharacters(run.bytes)).toEqual([])
    expect(shown(run.bytes)).toContain(HOSTILE_SHOWN)
  })

  it('ferry tools and ferry servers show titles, descriptions and names visibly; --json escapes them', async () => {
    const { daemon, tool } = await hostileDaemon()
    const table = await runInPty(daemon, ['tools'])
    expect(table.code).toBe(0)
    expect(controlCharacters(table.bytes)).toEqual([])
    const row = shown(table.bytes)
      .split('\n')
      .find((line) => line.startsWith(`${tool} `))
    expect(row).toContain(`${SERVER_SHOWN}  read-only  Hostile ${HOSTILE_SHOWN.slice(0, 40)}`)

    const json = await runInPty(daemon, ['tools', '--json'])
    expect(controlCharacters(json.bytes)).toEqual([])
    const listed = JSON.parse(shown(json.bytes)) as ToolInfo[]
    expect(listed.find((entry) => entry.name === tool)).toMatchObject({
      server: SERVER,
      title: `Hostile ${HOSTILE_TEXT}`,
      description: `Returns terminal control sequences. ${HOSTILE_TEXT}`,
    })

    const servers = await runInPty(daemon, ['servers'])
    expect(controlCharacters(servers.bytes)).toEqual([])
    expect(shown(servers.bytes)).toMatch(new RegExp(`^${escapeRegExp(SERVER_SHOWN)} +ready `, 'm'))
    const serversJson = await runInPty(daemon, ['servers', '--json'])
    expect(controlCharacters(serversJson.bytes)).toEqual([])
    expect(JSON.parse(shown(serversJson.bytes))).toMatchObject([{ name: SERVER }])
  })

  it("ferry logs shows a server's stderr visibly", async () => {
    const { daemon } = await hostileDaemon()
    const run = await runInPty(daemon, ['logs', SERVER])
    expect(run.code).toBe(0)
    expect(controlCharacters(run.bytes)).toEqual([])
    expect(shown(run.bytes)).toContain(HOSTILE_SHOWN)
  })

  it('ferry attach --plain and --json show a hostile call visibly and as escaped JSON', async () => {
    const { daemon, tool } = await hostileDaemon()
    await callAsLabel(daemon, tool)
    const follow = async (mode: string) => {
      const attach = startInPty(daemon, ['attach', mode])
      await attach.waitForOutput('the result', (text) => text.includes('call.result'))
      return attach.stop()
    }
    const plain = await follow('--plain')
    expect(controlCharacters(plain.bytes)).toEqual([])
    const lines = shown(plain.bytes).split('\n')
    expect(lines.find((line) => line.includes(' server.status '))).toContain(SERVER_SHOWN)
    expect(lines.find((line) => line.includes(' call.requested '))).toContain(`(${LABEL_SHOWN})`)
    expect(lines.find((line) => line.includes(' call.progress '))).toContain(HOSTILE_SHOWN)
    // The result's content is printed as JSON, with C1 escaped the same way.
    expect(lines.find((line) => line.includes(' call.result '))).toContain(
      'hostile: \\u001b]52;c;cHduZWQ=\\u0007',
    )

    const json = await follow('--json')
    expect(controlCharacters(json.bytes)).toEqual([])
    const events = shown(json.bytes)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as TranscriptEvent)
    expect(events).toEqual(await daemon.events())
    expect(events.find((event) => event.type === 'call.result')).toMatchObject({
      result: { content: [{ type: 'text', text: HOSTILE_TEXT }] },
    })
  })

  it('asks a confirmation naming a hostile server visibly', async () => {
    const { daemon, fail } = await hostileDaemon()
    const call = startInPty(daemon, ['call', fail])
    await call.waitForOutput('the question', (text) => text.includes('[d]eny: '))
    const run = await call.stop()
    // Node's readline moves the cursor itself (ESC [ n G, ESC [ 0 J); nothing else may be there.
    // eslint-disable-next-line no-control-regex -- the sequences readline writes
    expect(controlCharacters(run.bytes, /\u001b\[\d*[GJ]/g)).toEqual([])
    expect(shown(run.bytes)).toContain(`Allow ${fail} on "${SERVER_SHOWN}"?`)
  })

  it('the full-screen attach shows hostile text visibly and lets none of it act on the terminal', async () => {
    const { daemon, tool, fail } = await hostileDaemon()
    const term = await openTerminal(daemon)
    // With set-clipboard on, an OSC 52 that got through would fill a tmux paste buffer.
    await term.tmux('set-option', '-s', 'set-clipboard', 'on')
    const title = async () => term.tmux('display-message', '-p', '-t', term.target, '#{pane_title}')
    const titleBefore = await title()
    await term.waitForScreen('the header to say connected', (s) => s.includes('● connected'))

    await callAsLabel(daemon, tool)
    await term.waitForScreen('the call', (s) => s.includes(`✓ ${tool} {}`))
    expect(await title()).toBe(titleBefore)
    expect(await term.tmux('list-buffers')).toBe('')
    const result = await term.waitForScreen('the hostile result', (s) =>
      s.includes(`  ${HOSTILE_SHOWN}`),
    )
    expect(result).toMatch(new RegExp(`✓ ${tool} \\{\\} +${escapeRegExp(LABEL_SHOWN)} `))
    // Nobody else can answer: this screen asks, naming the server as it is.
    const asking = daemon.cli(['call', fail])
    const screen = await term.waitForScreen('the confirmation', (s) =>
      s.includes(`Allow ${fail} on server "${SERVER_SHOWN}"?`),
    )
    expect(screen).toContain(`server ${SERVER_SHOWN} ready`)
    await term.press('d')
    expect((await asking).code).toBe(1)

    expect(await title()).toBe(titleBefore)
    expect(await term.tmux('list-buffers')).toBe('')
    // The colours on screen are the attach screen's own: the server's red never applies.
    const styled = await term.tmux('capture-pane', '-p', '-e', '-t', term.target)
    expect(styled).toContain('␛[31mred␛[0m')
    expect(styled).not.toContain('\u001b[31mred')
  })
})

describe('the plain attach and confirmations', () => {
  it('refuses --read-only with --plain or --json, which never answer anyway', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    for (const mode of ['--plain', '--json']) {
      const result = await daemon.cli(['attach', mode, '--read-only'])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(
        `error: option '--read-only' cannot be used with option '${mode}'`,
      )
    }
  })

  it('never counts a plain or JSON attach as a client able to answer a confirmation', async () => {
    const { daemon, fail } = await hostileDaemon()
    for (const mode of ['--plain', '--json']) {
      const attach = startInPty(daemon, ['attach', mode])
      // Attached means subscribed, and the daemon handles the hello before the subscription.
      await attach.waitForOutput('the attach', (text) => text.includes('attached to session'))
    }
    const call = await daemon.cli(['call', fail])
    expect(call.code).toBe(2)
    expect(call.stderr).toMatch(/needs a confirmation and no attached client can give it/)
  })
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
