// The WebShell's transcript lines for what is not a call, in a real browser: a prompt got and a
// resource read from the panes, each saying who did it, and a server's log messages, on the card
// of the call they came during or on a line of their own, shown as text.

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fixture } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { offeringsFixture } from '../../daemon/test/offerings-rig.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()
afterEach(cleanup)

async function openPane(page: Page, server: string, pane: string): Promise<void> {
  await page
    .getByTestId(`server-${server}`)
    .getByRole('button', { name: server, exact: true })
    .click()
  await page.getByTestId(`tab-${pane}`).click()
  await page.getByTestId(`${pane}-pane`).waitFor()
}

describe('the transcript', () => {
  it('shows prompt gets, resource reads and server log messages as lines', async () => {
    const daemon = await startInProcess({
      mcpServers: { off: offeringsFixture('legacy'), fx: fixture(['--log-tool']) },
    })
    await daemon.waitForStatus('off', 'ready')
    await daemon.waitForStatus('fx', 'ready')
    const { page, errors } = await openPage(browser())
    page.setDefaultTimeout(15_000)
    await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
    const transcript = page.getByTestId('transcript')
    const line = (event: string) =>
      transcript.locator(`[data-testid="event-line"][data-event="${event}"]`)

    await openPane(page, 'off', 'resources')
    await page.locator('[data-testid="resource"][data-uri="note://one"]').click()
    await page.locator('[data-testid="resource-shown"][data-state="read"]').waitFor()
    const read = line('resource.read')
    await read.waitFor()
    expect(await read.textContent()).toMatch(
      /read note:\/\/one of off by WebShell tab [0-9a-f]{4} \(Chrome\): 1 text content, 22 B/,
    )

    await page.getByTestId('tab-prompts').click()
    await page.getByTestId('prompts-pane').waitFor()
    await page.locator('[data-testid="prompt"][data-prompt="greet"]').click()
    const form = page.getByTestId('prompt-form')
    await form.getByRole('combobox', { name: 'lang' }).fill('en')
    await form.getByRole('combobox', { name: 'who' }).fill('Ann')
    await form.getByRole('button', { name: 'Get prompt' }).click()
    const got = line('prompt.got')
    await got.waitFor()
    expect(await got.textContent()).toMatch(
      /prompt greet of server off got by WebShell tab .*: 2 messages/,
    )
    await got.locator('summary').click()
    expect(await got.getByTestId('event-body').textContent()).toContain('[en] hello Ann')

    // The read's line leads back to the resource.
    await read.getByRole('button', { name: 'Open in Resources' }).click()
    await page.locator('[data-testid="resource-shown"][data-uri="note://one"]').waitFor()

    const text = '<img src=x onerror="window.pwned=1">slow disk'
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tool: 'mcp_fx_emit_logs',
        arguments: { count: 1, level: 'warning', logger: 'db', text, afterMs: 0 },
      }),
    })
    expect(response.status).toBe(200)
    const { id } = (await response.json()) as { id: string }
    const card = transcript.locator(`[data-testid="call-card"][data-call-id="${id}"]`)
    const during = card.getByTestId('call-log')
    await during.waitFor()
    expect(await during.getAttribute('data-level')).toBe('warning')
    expect(await during.textContent()).toContain(`log warning (db): ${text}`)
    // The message sent after the call belongs to no call: a line of its own.
    const after = line('server.log')
    await after.waitFor()
    expect(await after.textContent()).toContain(`fx log warning (db): ${text}`)
    expect(await transcript.locator('img').count()).toBe(0)
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined()
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
