// A server's questions answered from real terminals: `ferry call`'s own prompt and the full-screen
// `ferry attach`, both in tmux, against server-everything's form elicitation.

import { chmod, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../src/protocol/index.js'
import { cleanup, fixture, tempDir, type Daemon } from './harness.js'
import { startInProcess } from './in-process.js'
import { closeTerminal, openTerminal, type Terminal } from './terminal.js'

afterEach(async () => {
  await closeTerminal()
  await cleanup()
})

const everythingPath = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
)
const TOOL = 'mcp_everything_trigger-elicitation-request'

async function everythingDaemon(): Promise<Daemon> {
  const daemon = await startInProcess({
    mcpServers: {
      everything: { command: process.execPath, args: [everythingPath, 'stdio'], trust: true },
    },
  })
  await daemon.waitForStatus('everything', 'ready', 30_000)
  return daemon
}

const lastLine = (screen: string) =>
  screen
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .at(-1) ?? ''

type Asked = Extract<TranscriptEvent, { type: 'input.requested' }>

async function nextInput(daemon: Daemon, after = 0): Promise<Asked> {
  return (await daemon.waitForEvent(
    (event) => event.type === 'input.requested' && event.seq > after,
    30_000,
  )) as Asked
}

/** Answers one field of `ferry call`'s form: waits for its line, clears it if asked, types, Enter. */
async function field(term: Terminal, key: string, typed = '', clear = false): Promise<void> {
  await term.waitForScreen(`the ${key} field`, (s) => lastLine(s).startsWith(`  ${key}:`))
  if (clear) await term.press('C-u')
  if (typed !== '') await term.type(typed)
  await term.press('Enter')
}

async function choose(term: Terminal, question: string, letter: string): Promise<void> {
  await term.waitForScreen(`the question ${question}`, (s) => lastLine(s).startsWith(question))
  await term.type(letter)
  await term.press('Enter')
}

describe("ferry call's own prompt", () => {
  it('answers a form on its terminal, fixes the field the daemon refuses, and the server gets the content', async () => {
    const daemon = await everythingDaemon()
    const term = await openTerminal(daemon, [TOOL], ['call'])
    await term.waitForScreen('the question', (s) =>
      s.includes('"everything" asks: Please provide inputs for the following fields:'),
    )
    await choose(term, '[a]nswer, [d]ecline or [c]ancel?', 'a')
    const asked = await term.waitForScreen('the first field', (s) =>
      lastLine(s).startsWith('  name:'),
    )
    expect(asked).toContain('String * (text) — Your full, legal name')
    await field(term, 'name', 'Ada Lovelace')
    await field(term, 'check', 'y')
    const prefilled = await term.waitForScreen('the default', (s) =>
      lastLine(s).startsWith('  firstLine:'),
    )
    expect(lastLine(prefilled)).toBe('  firstLine: It was a dark and stormy night.')
    await field(term, 'firstLine')
    await field(term, 'email', 'ada@example.com')
    await field(term, 'homepage')
    await field(term, 'birthdate', '1815-12-10')
    // Over the schema's maximum of 100: the form passes it on, the daemon refuses it.
    await field(term, 'integer', '500', true)
    await field(term, 'number')
    const untitled = await term.waitForScreen('an untitled choice', (s) =>
      lastLine(s).startsWith('  untitledSingleSelectEnum:'),
    )
    expect(untitled).toContain('1) Monica  2) Rachel  3) Joey')
    expect(lastLine(untitled)).toBe('  untitledSingleSelectEnum: Monica')
    await field(term, 'untitledSingleSelectEnum')
    await field(term, 'untitledMultipleSelectEnum')
    const titled = await term.waitForScreen('a titled choice', (s) =>
      lastLine(s).startsWith('  titledSingleSelectEnum:'),
    )
    expect(titled).toContain('1) Superman  2) Green Lantern  3) Wonder Woman')
    expect(lastLine(titled)).toBe('  titledSingleSelectEnum: Superman')
    await field(term, 'titledSingleSelectEnum')
    await field(term, 'titledMultipleSelectEnum', '2, Trout', true)
    await field(term, 'legacyTitledEnum', 'Dogs', true)
    await choose(term, '[s]end, [e]dit a field, [d]ecline or [c]ancel?', 's')
    const refused = await term.waitForScreen('the refusal naming the field', (s) =>
      lastLine(s).startsWith('  integer:'),
    )
    expect(refused).toContain('refused: content/integer must be <= 100')
    await field(term, 'integer', '7', true)
    await choose(term, '[s]end, [e]dit a field, [d]ecline or [c]ancel?', 's')

    const done = await term.waitForScreen('the result', (s) => s.includes('ferry exited with 0'))
    expect(done).toMatch(/everything's [a-z ]+( "[^"\n]+")?: answered by ferry call \(pid \d+\)/)
    expect(done).toContain('✅ User provided the requested information!')
    expect(done).toContain('- Name: Ada Lovelace')
    expect(done).toContain('- Email: ada@example.com')
    expect(done).toContain('- Favorite Integer: 7')
    const resolved = await daemon.waitForEvent((e) => e.type === 'input.resolved')
    expect(resolved).toMatchObject({
      action: 'accept',
      content: {
        integer: 7,
        legacyTitledEnum: 'pet-2',
        untitledMultipleSelectEnum: ['Guitar'],
        titledMultipleSelectEnum: ['fish-2', 'fish-3'],
      },
    })
  })

  it('closes its prompt when another client answers first, saying who, and asks the next question', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture(['--elicit-tool']) } })
    await daemon.waitForStatus('fx', 'ready')
    const term = await openTerminal(daemon, ['mcp_fx_ask_user', '{"rounds":2}'], ['call'])
    const first = await nextInput(daemon)
    await term.waitForScreen('the first question', (s) =>
      s.includes('"fx" asks: What is your name? (question 1)'),
    )
    await choose(term, '[a]nswer, [d]ecline or [c]ancel?', 'a')
    await term.waitForScreen('its field', (s) => lastLine(s).startsWith('  name:'))
    const answer = await daemon.api(`/inputs/${first.inputId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', content: { name: 'from the API' } }),
    })
    expect(answer.status).toBe(200)
    // The open prompt closes at once, so the call's next question is asked right away.
    const second = await term.waitForScreen('the second question', (s) =>
      s.includes('"fx" asks: What is your name? (question 2)'),
    )
    // Named as the person saw it asked, not by its id.
    expect(second).toMatch(/fx's form "What is your name\? \(question 1\)": answered by \S/)
    expect(second).not.toContain(first.inputId)
    await choose(term, '[a]nswer, [d]ecline or [c]ancel?', 'a')
    await field(term, 'name', 'from the terminal')
    await choose(term, '[s]end, [e]dit a field, [d]ecline or [c]ancel?', 's')
    const done = await term.waitForScreen('the result', (s) => s.includes('ferry exited with 0'))
    // The result is wider than the terminal: joined back where the terminal wrapped it.
    expect(done.replaceAll('\n', '')).toContain(
      '{"answers":[{"action":"accept","content":{"name":"from the API"}},{"action":"accept","content":{"name":"from the terminal"}}]}',
    )
  })
  it('never shows what is typed into a masked field, and sends it', async () => {
    // A 2026-07-28 server: the legacy SDK refuses a `password` format before it is sent.
    const daemon = await startInProcess({
      mcpServers: {
        fx: fixture(['--input-tools', '--era', 'modern'], { versionNegotiation: 'auto' }),
      },
    })
    await daemon.waitForStatus('fx', 'ready')
    const term = await openTerminal(daemon, ['mcp_fx_ask_person', '{"kind":"secret"}'], ['call'])
    await choose(term, '[a]nswer, [d]ecline or [c]ancel?', 'a')
    await field(term, 'user', 'ada')
    const masked = await term.waitForScreen('the masked field', (s) =>
      lastLine(s).startsWith('  key:'),
    )
    expect(masked).toContain('API key * (a password, not shown as typed)')
    await term.type('s3cret-value')
    await term.press('Enter')
    const before = await term.waitForScreen('the send question', (s) =>
      lastLine(s).startsWith('[s]end, [e]dit a field, [d]ecline or [c]ancel?'),
    )
    expect(before).not.toContain('s3cret')
    await term.type('s')
    await term.press('Enter')
    const done = await term.waitForScreen('the result', (s) => s.includes('ferry exited with 0'))
    expect(done).toContain('s3cret-value')
  })

  it("shows a sampling request and sends the reply typed in the model's place", async () => {
    const daemon = await everythingDaemon()
    const args = JSON.stringify({ prompt: 'What is 2+2?' })
    const term = await openTerminal(
      daemon,
      ['mcp_everything_trigger-sampling-request', args],
      ['call'],
    )
    const asked = await term.waitForScreen('the request', (s) =>
      lastLine(s).startsWith("[r]eply in the model's place, [d]ecline or [c]ancel?"),
    )
    expect(asked).toContain('  user: Resource trigger-sampling-request context: What is 2+2?')
    expect(asked).toContain('  system prompt: You are a helpful test server.')
    expect(asked).toContain('  max tokens 100 · temperature 0.7')
    await term.type('r')
    await term.press('Enter')
    await term.waitForScreen('the reply line', (s) => lastLine(s) === '  >')
    await term.type('Four.')
    await term.press('Enter')
    await term.waitForScreen('the next reply line', (s) => / {2}> Four\.\n {2}>$/.test(s.trimEnd()))
    await term.press('Enter')
    const done = await term.waitForScreen('the result', (s) => s.includes('ferry exited with 0'))
    expect(done).toMatch(/everything's [a-z ]+( "[^"\n]+")?: answered by ferry call \(pid \d+\)/)
    expect(done).toContain('"text": "Four."')
    expect(done).toContain('"model": "human"')
  })
})

describe('ferry attach (full screen)', () => {
  it("answers another caller's form with the keyboard, fixing what the daemon refuses", async () => {
    const daemon = await everythingDaemon()
    const term = await openTerminal(daemon)
    await term.waitForScreen('the header to say connected', (s) => s.includes('● connected'))

    // Not a terminal: the question goes to the attached screen.
    const other = daemon.cli(['call', TOOL])
    const form = await term.waitForScreen('the form', (s) => s.includes('› String *'))
    expect(form).toContain(
      `server "everything" asks (${TOOL}): Please provide inputs for the following`,
    )
    expect(form).toMatch(/String with default +It was a dark and stormy night\./)
    expect(form).toMatch(/Integer +42/)
    expect(form).toContain('Your full, legal name · text')
    await term.type('Grace Hopper')
    await term.waitForScreen('the typed name', (s) => /› String \* +Grace Hopper/.test(s))
    // Six fields down: the integer.
    for (let i = 0; i < 6; i++) await term.press('Tab')
    await term.waitForScreen('the integer field focused', (s) => /› Integer +‹?42/.test(s))
    await term.press('C-u')
    await term.type('500')
    await term.press('Enter')
    const refused = await term.waitForScreen(
      'the refusal on the field',
      (s) => /› Integer +500/.test(s) && s.includes('content/integer must be <= 100'),
    )
    expect(refused).toContain('› Integer')
    await term.press('C-u')
    await term.type('7')
    await term.press('Enter')

    const result = await other
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('- Name: Grace Hopper')
    expect(result.stdout).toContain('- Favorite Integer: 7')
    const answered = await term.waitForScreen('the prompt to close', (s) =>
      /everything's form "[^"]+": answered by ferry attach \(pid \d+\)/.test(s),
    )
    expect(answered).not.toContain('› String *')

    // Answered elsewhere: the prompt closes and the feed says by whom.
    const seq = (await daemon.events()).at(-1)?.seq ?? 0
    const second = daemon.cli(['call', TOOL])
    const input = await nextInput(daemon, seq)
    await term.waitForScreen('the second form', (s) => s.includes('› String *'))
    await daemon.api(`/inputs/${input.inputId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'cancel' }),
    })
    expect((await second).stdout).toContain('⚠️ User cancelled the elicitation dialog.')
    const closed = await term.waitForScreen('the second prompt to close', (s) =>
      /everything's form "[^"]+": cancelled by \S/.test(s),
    )
    expect(closed).not.toContain('› String *')
  })

  it('shows a page to visit with its origin and opens it only when asked', async () => {
    const daemon = await everythingDaemon()
    // The browser opener `ferry open` uses, replaced by one that writes down what it was given.
    const bin = await tempDir('ferry-opener-')
    const opened = join(bin, 'opened.txt')
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" >> '${opened}'\n`)
    await chmod(join(bin, 'xdg-open'), 0o755)
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path ?? ''}`
    let term: Terminal
    try {
      term = await openTerminal(daemon)
    } finally {
      process.env.PATH = path
    }
    await term.waitForScreen('the header to say connected', (s) => s.includes('● connected'))
    const url = 'https://auth.example.com/consent?flow=42'
    const other = daemon.cli([
      'call',
      'mcp_everything_trigger-url-elicitation',
      JSON.stringify({ url }),
    ])
    const shown = await term.waitForScreen('the page to visit', (s) => s.includes(url))
    expect(shown).toContain('server "everything" asks you to visit a page')
    expect(shown).toContain('leads to https://auth.example.com')
    expect(shown).toMatch(/ o {2}open in the browser {4}a {2}accept {4}d {2}decline {4}c {2}cancel/)
    await expect(readFile(opened, 'utf8')).rejects.toThrow()
    await term.type('o')
    await term.waitForScreen('the page opened', (s) =>
      s.includes('opened https://auth.example.com in the browser'),
    )
    expect(await readFile(opened, 'utf8')).toBe(`${url}\n`)
    await term.type('a')
    expect((await other).stdout).toContain('✅ User completed the URL elicitation flow.')
    await term.waitForScreen('the box to close', (s) =>
      /everything's [a-z ]+( "[^"\n]+")?: answered by ferry attach/.test(s),
    )
  })

  it('shows a sampling request and sends the reply typed on the reply line', async () => {
    const daemon = await everythingDaemon()
    const term = await openTerminal(daemon)
    await term.waitForScreen('the header to say connected', (s) => s.includes('● connected'))
    const args = JSON.stringify({ prompt: 'Name a colour' })
    const other = daemon.cli(['call', 'mcp_everything_trigger-sampling-request', args])
    const shown = await term.waitForScreen('the request', (s) => s.includes('reply ›'))
    expect(shown).toContain('server "everything" asks for a model reply')
    expect(shown).toContain('user: Resource trigger-sampling-request context: Name a colour')
    expect(shown).toContain('system prompt: You are a helpful test server.')
    expect(shown).toContain('max tokens 100 · temperature 0.7')
    await term.type('Teal.')
    await term.waitForScreen('the typed reply', (s) => s.includes('reply › Teal.'))
    await term.press('Enter')
    const result = await other
    expect(result.stdout).toContain('"text": "Teal."')
    await term.waitForScreen('the box to close', (s) =>
      /everything's [a-z ]+( "[^"\n]+")?: answered by ferry attach/.test(s),
    )
  })
})

describe('ferry config input on a terminal', () => {
  it('takes the answer typed without showing it, and keeps it as typed', async () => {
    const home = await tempDir('ferry-config-home-')
    const before = process.env.XDG_CONFIG_HOME
    // The daemon here and the command in tmux read the environment of this process's file.
    process.env.XDG_CONFIG_HOME = home
    try {
      const daemon = await startInProcess({ mcpServers: {} })
      const term = await openTerminal(daemon, ['input', 'api-key'], ['config'])
      await term.waitForScreen('the question', (s) =>
        lastLine(s).startsWith('Answer for ${input:api-key} (not shown):'),
      )
      await term.type('s3cret-typed')
      await term.press('Enter')
      const done = await term.waitForScreen('the end', (s) => s.includes('ferry exited with 0'))
      expect(done).toContain('Saved the answer to ${input:api-key}')
      expect(done).not.toContain('s3cret-typed')
      const saved = JSON.parse(await readFile(join(home, 'ferry', 'inputs.json'), 'utf8'))
      expect(saved).toEqual({ 'api-key': 's3cret-typed' })
    } finally {
      if (before === undefined) delete process.env.XDG_CONFIG_HOME
      else process.env.XDG_CONFIG_HOME = before
    }
  })
})
