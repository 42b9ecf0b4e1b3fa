// The live transcript in a real browser: a confirmation raised by a terminal's call is answered in
// a tab while a second tab sees who answered; the tab survives a daemon restart and shows every
// event once; sessions can be created, renamed and switched, and the address follows.

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture, waitFor } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import type {
  SessionInfo,
  StatusResponse,
  TranscriptEvent,
} from '../../daemon/src/protocol/index.js'
import { errorsBesidesDaemonAway, openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

async function live(page: Page): Promise<void> {
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
}

/** The seqs of the rendered rows, the call ids of the rendered cards, and the newest seq shown. */
async function shown(page: Page): Promise<{ seqs: number[]; calls: string[]; lastSeq: number }> {
  return page.evaluate(() => {
    const transcript = document.querySelector('[data-testid="transcript"]')
    return {
      seqs: [...document.querySelectorAll('[data-seq]')].map((row) =>
        Number(row.getAttribute('data-seq')),
      ),
      calls: [...document.querySelectorAll('[data-testid="call-card"]')].map(
        (card) => card.getAttribute('data-call-id') ?? '',
      ),
      lastSeq: Number(transcript?.getAttribute('data-last-seq') ?? -1),
    }
  })
}

describe('the live transcript', () => {
  it('answers a terminal’s confirmation in one tab while another tab sees who answered', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([], { trust: false }) } })
    await daemon.waitForStatus('fx', 'ready')
    const url = `${daemon.info.url}#token=${daemon.info.token}`
    const one = await openPage(browser())
    const two = await openPage(browser())
    await one.page.goto(url)
    await two.page.goto(url)
    await live(one.page)
    await live(two.page)

    // `slow` carries no read-only hint, so an untrusted server's call needs an answer.
    const terminal = daemon.cli(['call', 'mcp_fx_slow', '{"steps":1,"delayMs":10}', '--json'])
    const ask = one.page.getByTestId('confirmation')
    await ask.waitFor()
    await two.page.getByTestId('confirmation').waitFor()
    expect(await one.page.getByTestId('call-client').textContent()).toContain('ferry call')
    const tabName = await one.page.evaluate(() => sessionStorage.getItem('ferry.tab'))
    await ask.getByRole('button', { name: 'Allow once' }).click()

    const finished = await terminal
    expect(finished.code, finished.stderr).toBe(0)
    expect(JSON.parse(finished.stdout)).toMatchObject({ content: [{ type: 'text', text: 'done' }] })
    const answered = two.page.getByTestId('confirmation-answer')
    await answered.waitFor()
    expect(await answered.textContent()).toBe(`WebShell tab ${tabName} (Chrome) allowed once.`)
    expect(await two.page.getByTestId('confirmation').count()).toBe(0)
    await two.page.locator('[data-testid="call-card"][data-state="done"]').waitFor()

    expect(one.errors, one.errors.join('\n')).toEqual([])
    expect(two.errors, two.errors.join('\n')).toEqual([])
  })

  it('reconnects after a daemon restart and shows every event once', async () => {
    const settings = { mcpServers: { fx: fixture([]) } }
    const first = await startInProcess(settings)
    await first.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    await page.goto(`${first.info.url}#token=${first.info.token}`)
    await live(page)
    for (const text of ['before one', 'before two']) {
      expect((await first.cli(['call', 'mcp_fx_echo', JSON.stringify({ text })])).code).toBe(0)
    }
    await waitFor(async () => (await shown(page)).calls.length === 2 || undefined)

    await first.stop()
    await page.locator('[data-testid="connection"][data-state="reconnecting"]').waitFor()
    const second = await startInProcess(settings, { stateDir: first.stateDir })
    expect(second.info.token).toBe(first.info.token)
    await second.waitForStatus('fx', 'ready')
    await live(page)
    expect((await second.cli(['call', 'mcp_fx_echo', '{"text":"after"}'])).code).toBe(0)

    const session = (await (await second.api('/sessions')).json()) as SessionInfo[]
    const head = session.find((candidate) => candidate.isDefault)?.headSeq ?? 0
    const state = await waitFor(
      async () => {
        const now = await shown(page)
        return now.lastSeq === head && now.calls.length === 3 ? now : undefined
      },
      15_000,
      'the tab to catch up',
    )
    expect(new Set(state.calls).size).toBe(3)
    expect(new Set(state.seqs).size).toBe(state.seqs.length)
    const page1 = (await (
      await second.api(`/sessions/${session.find((s) => s.isDefault)?.id}/events`)
    ).json()) as { events: TranscriptEvent[] }
    // One row per call (at its request), per notice and per server status change.
    const rowsExpected = page1.events.filter((event) =>
      ['call.requested', 'notice', 'server.status'].includes(event.type),
    ).length
    expect(state.seqs.length).toBe(rowsExpected)
    for (const text of ['before one', 'before two', 'after']) {
      expect(await page.getByTestId('result').filter({ hasText: text }).count()).toBe(1)
    }
    // The browser logs the failed reconnect attempts while the daemon is down; nothing else.
    expect(errorsBesidesDaemonAway(errors), errors.join('\n')).toEqual([])
    await page.close()
  })

  it('creates, renames and switches sessions, and the address follows', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    expect((await daemon.cli(['call', 'mcp_fx_echo', '{"text":"in the default"}'])).code).toBe(0)
    const { page, errors } = await openPage(browser())
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)
    await page.getByTestId('result').filter({ hasText: 'in the default' }).waitFor()
    const defaultId = new URL(page.url()).searchParams.get('session')
    const status = (await (await daemon.api('/status')).json()) as StatusResponse
    expect(defaultId).toBe(status.defaultSession)

    await page.getByRole('button', { name: 'New session' }).click()
    await page.getByLabel('New session name').fill('experiments')
    await page.getByRole('button', { name: 'Create' }).click()
    await waitFor(
      async () => new URL(page.url()).searchParams.get('session') !== defaultId || undefined,
    )
    const createdId = new URL(page.url()).searchParams.get('session') ?? ''
    await page.getByText('No events in this session yet').waitFor()
    await page.getByRole('button', { name: 'Rename' }).click()
    await page.getByLabel('Session name').fill('renamed here')
    await page.getByRole('button', { name: 'Save' }).click()
    await waitFor(async () => {
      const sessions = (await (await daemon.api('/sessions')).json()) as SessionInfo[]
      return (
        sessions.find((session) => session.id === createdId)?.name === 'renamed here' || undefined
      )
    })

    expect(
      (
        await daemon.cli([
          'call',
          'mcp_fx_echo',
          '{"text":"in the new one"}',
          '--session',
          createdId,
        ])
      ).code,
    ).toBe(0)
    await page.getByTestId('result').filter({ hasText: 'in the new one' }).waitFor()
    expect(await page.getByTestId('result').filter({ hasText: 'in the default' }).count()).toBe(0)

    // A reload and a second tab land on the same session.
    await page.reload()
    await live(page)
    await page.getByTestId('result').filter({ hasText: 'in the new one' }).waitFor()
    const other = await openPage(browser())
    await other.page.goto(`${page.url()}#token=${daemon.info.token}`)
    await other.page.getByTestId('result').filter({ hasText: 'in the new one' }).waitFor()

    await page.getByTestId('session-select').selectOption(defaultId ?? '')
    await page.getByTestId('result').filter({ hasText: 'in the default' }).waitFor()
    expect(new URL(page.url()).searchParams.get('session')).toBe(defaultId)
    await page.goBack()
    await page.getByTestId('result').filter({ hasText: 'in the new one' }).waitFor()

    expect(errors, errors.join('\n')).toEqual([])
    expect(other.errors, other.errors.join('\n')).toEqual([])
  })

  it('follows the last session asked for when the daemon answers switches late', async () => {
    const daemon = await startInProcess({ mcpServers: { fx: fixture([]) } })
    await daemon.waitForStatus('fx', 'ready')
    expect((await daemon.cli(['call', 'mcp_fx_echo', '{"text":"first session"}'])).code).toBe(0)
    const created = (await (
      await daemon.api('/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'second' }),
      })
    ).json()) as SessionInfo
    const call = ['call', 'mcp_fx_echo', '{"text":"second session"}', '--session', created.id]
    expect((await daemon.cli(call)).code).toBe(0)
    const { page, errors } = await openPage(browser())
    // Every message from the daemon reaches the page 250 ms late, so a switch can start while
    // the answer to the one before is still on its way.
    await page.routeWebSocket(/\/api\/stream$/, (socket) => {
      const server = socket.connectToServer()
      server.onMessage((message) => void setTimeout(() => socket.send(message), 250))
    })
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await live(page)
    await page.getByTestId('result').filter({ hasText: 'first session' }).waitFor()
    const firstId = new URL(page.url()).searchParams.get('session') ?? ''

    await page.getByTestId('session-select').selectOption(created.id)
    await page.getByTestId('result').filter({ hasText: 'second session' }).waitFor()
    await page.getByTestId('session-select').selectOption(firstId)
    await page.waitForTimeout(50)
    await page.getByTestId('session-select').selectOption(created.id)
    // A later call in the second session reaches the page after every late answer before it
    // (the socket keeps the daemon's order): once it shows, those answers have been handled.
    const barrier = ['call', 'mcp_fx_echo', '{"text":"barrier"}', '--session', created.id]
    expect((await daemon.cli(barrier)).code).toBe(0)
    await page.getByTestId('result').filter({ hasText: 'barrier' }).waitFor()
    expect(new URL(page.url()).searchParams.get('session')).toBe(created.id)
    expect(await page.getByTestId('result').filter({ hasText: 'second session' }).count()).toBe(1)
    expect(await page.getByTestId('result').filter({ hasText: 'first session' }).count()).toBe(0)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
