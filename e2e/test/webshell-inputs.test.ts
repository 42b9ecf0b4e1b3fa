// Answering a server's inputs from the WebShell in a real browser, against server-everything: its
// form (defaults, titled enums, lists of choices), content that breaks the schema kept back with
// the field named, decline and cancel, its URL elicitation, its sampling request, and an input
// answered elsewhere closing the dialog.

import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptEvent } from '../../daemon/src/protocol/index.js'
import { cleanup, waitFor, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { e2eRoot } from '../fixtures/paths.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()

const EVERYTHING = join(
  e2eRoot,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
)

/**
 * One daemon and one server-everything for the file; each test opens the WebShell on a session of
 * its own, so it sees only its own calls and its own answers.
 */
let daemon: Daemon
beforeAll(async () => {
  daemon = await startInProcess({
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true },
    },
  })
  await daemon.waitForStatus('everything', 'ready')
})
afterAll(cleanup)

/** Opens the WebShell on a session made for the test. */
async function openShell(): Promise<{ page: Page; errors: string[]; session: string }> {
  const created = await daemon.api('/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'inputs' }),
  })
  const session = ((await created.json()) as { id: string }).id
  const opened = await openPage(browser())
  opened.page.setDefaultTimeout(10_000)
  await opened.page.goto(`${daemon.info.url}?session=${session}#token=${daemon.info.token}`)
  await opened.page
    .locator('[data-testid="connection"][data-state="live"]')
    .waitFor({ timeout: 10_000 })
  return { ...opened, session }
}

/** Opens the tool's form in the side panel, fills `fill`, presses Call; the Call button is returned. */
async function callTool(
  page: Page,
  tool: string,
  fill: Record<string, string> = {},
): Promise<ReturnType<Page['locator']>> {
  // The list is virtualised; searching brings the tool into view.
  await page.getByLabel('Search tools').fill(tool)
  const row = page.locator(`[data-tool="mcp_everything_${tool}"]`)
  const form = row.getByTestId('tool-form')
  if (!(await form.isVisible())) await row.locator('.tool-toggle').click()
  for (const [label, value] of Object.entries(fill)) {
    await form.getByLabel(label, { exact: false }).fill(value)
  }
  const call = form.getByRole('button', { name: 'Call' })
  await call.click()
  return call
}

function resolvedEvents(events: TranscriptEvent[]) {
  return events.filter((event) => event.type === 'input.resolved')
}

describe('answering server-everything’s inputs from the WebShell', () => {
  it('shows its whole form with defaults and titled options, keeps back content that breaks the schema, and sends what the person accepts', async () => {
    const { page, errors, session } = await openShell()
    const loaded: string[] = []
    page.on('request', (request) => loaded.push(request.url()))
    const call = await callTool(page, 'trigger-elicitation-request')

    const dialog = page.getByTestId('input-dialog')
    await dialog.waitFor({ timeout: 10_000 })
    // The dialog module loads only when an input opens.
    expect(loaded.some((url) => url.includes('InputDialog'))).toBe(true)
    expect(await dialog.getByTestId('input-call-tool').textContent()).toBe(
      'mcp_everything_trigger-elicitation-request',
    )
    expect(await dialog.getByTestId('input-message').textContent()).toBe(
      'Please provide inputs for the following fields:',
    )
    const form = dialog.getByTestId('input-form')
    // In view whatever the transcript's scroll: the question bar is pinned below it.
    await page.getByTestId('transcript').evaluate((element) => element.scrollTo(0, 0))
    const box = await dialog.boundingBox()
    const viewport = page.viewportSize()
    expect(box !== null && viewport !== null && box.y >= 0 && box.y < viewport.height).toBe(true)
    // Focus is in the dialog, on its first field; the required field is marked.
    expect(await page.evaluate(() => document.activeElement?.id ?? '')).toContain('field-name')
    expect(await form.locator('label', { hasText: 'String' }).first().textContent()).toBe(
      'String *',
    )
    // Defaults are filled in, titled enums show their titles, and lists are sets of checkboxes.
    expect(await form.getByLabel('String with default', { exact: true }).inputValue()).toBe(
      'It was a dark and stormy night.',
    )
    expect(await form.getByLabel('Integer', { exact: true }).inputValue()).toBe('42')
    const hero = form.getByLabel('Titled Single Select Enum', { exact: true })
    const chosen = (select: typeof hero) =>
      select.evaluate((element: HTMLSelectElement) => element.selectedOptions[0]?.textContent)
    expect(await chosen(hero)).toBe('Superman')
    expect(
      await form
        .getByLabel('Legacy Titled Single Select Enum', { exact: true })
        .locator('option')
        .allTextContents(),
    ).toEqual(['—', 'Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'])
    expect(await form.getByLabel('Tuna', { exact: true }).isChecked()).toBe(true)
    expect(await form.getByLabel('Guitar', { exact: true }).isChecked()).toBe(true)

    // Content that breaks the schema is refused beside its fields and never sent.
    await form.getByLabel('Integer', { exact: true }).fill('500')
    await form.getByRole('button', { name: 'Accept' }).click()
    await form.locator('.field-error').first().waitFor({ timeout: 10_000 })
    expect(await form.locator('.field-error').allTextContents()).toEqual([
      'name: required',
      'integer: must be an integer ≥ 1 and ≤ 100',
    ])

    await form.locator('input[id$="-field-name"]').fill('Ada Lovelace')
    await form.getByLabel('Integer', { exact: true }).fill('7')
    await hero.selectOption({ label: 'Wonder Woman' })
    await form.getByLabel('Salmon', { exact: true }).check()
    await form
      .getByLabel('Legacy Titled Single Select Enum', { exact: true })
      .selectOption({ label: 'Birds' })
    await form.getByRole('button', { name: 'Accept' }).click()

    const card = page.locator('[data-testid="call-card"][data-state="done"]')
    await card.waitFor({ timeout: 10_000 })
    await dialog.waitFor({ state: 'detached' })
    const result = (await card.getByTestId('result').textContent()) ?? ''
    expect(result).toContain('User provided the requested information!')
    expect(result).toContain('Name: Ada Lovelace')
    expect(result).toContain('Favorite Integer: 7')
    for (const sent of ['hero-3', 'fish-1', 'fish-2', 'pet-3', 'Guitar']) {
      expect(result).toContain(sent)
    }
    // Exactly one answer reached the daemon: the refused content never left the tab.
    const resolved = resolvedEvents(await daemon.events(session))
    expect(resolved).toHaveLength(1)
    expect(resolved[0]).toMatchObject({ action: 'accept', content: { integer: 7 } })
    expect(await card.getByTestId('input-resolution').textContent()).toMatch(
      /^Answered by WebShell tab/,
    )
    // Focus is back on the Call button that started it.
    expect(await call.evaluate((button) => button === document.activeElement)).toBe(true)
    expect(errors).toEqual([])
  })

  it('shows the daemon’s refusal of an answer on the field it names, and sends the corrected one', async () => {
    const { page, errors, session } = await openShell()
    await callTool(page, 'trigger-elicitation-request')
    const form = page.getByTestId('input-dialog').getByTestId('input-form')
    await form.locator('input[id$="-field-name"]').fill('Ada')
    // The tab's own check lets an underscore in the host through; the daemon's does not.
    const email = form.getByLabel('String with email format', { exact: true })
    await email.fill('ada@bad_host.org')
    await form.getByRole('button', { name: 'Accept' }).click()
    const refusal = form.locator('.field-error')
    await refusal.waitFor()
    expect(await refusal.allTextContents()).toEqual(['email: must match format "email"'])
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    expect(await email.evaluate((input) => input === document.activeElement)).toBe(true)

    await email.fill('ada@example.org')
    await form.getByRole('button', { name: 'Accept' }).click()
    const card = page.locator('[data-testid="call-card"][data-state="done"]')
    await card.waitFor()
    expect(await card.getByTestId('result').textContent()).toContain('Email: ada@example.org')
    const resolved = resolvedEvents(await daemon.events(session))
    expect(resolved).toHaveLength(1)
    expect(resolved[0]).toMatchObject({ action: 'accept', content: { email: 'ada@example.org' } })
    expect(errors).toEqual([])
  })

  it('sends decline and cancel; Esc leaves the question for later and Alt+Q comes back to it', async () => {
    const { page, errors, session } = await openShell()
    const dialog = page.getByTestId('input-dialog')
    const done = page.locator('[data-testid="call-card"][data-state="done"]')

    await callTool(page, 'trigger-elicitation-request')
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await done.first().waitFor()
    expect(await page.getByTestId('result').first().textContent()).toContain(
      'User declined to provide the requested information.',
    )

    const call = await callTool(page, 'trigger-elicitation-request')
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    // Left for later: still open, focus back on the Call button, nothing sent.
    expect(await call.evaluate((button) => button === document.activeElement)).toBe(true)
    expect(await dialog.count()).toBe(1)
    await page.keyboard.press('Alt+KeyQ')
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await waitFor(async () => (await done.count()) === 2)
    expect(await page.getByTestId('result').nth(1).textContent()).toContain(
      'User cancelled the elicitation dialog.',
    )
    expect(
      resolvedEvents(await daemon.events(session)).map(
        (event) => event.type === 'input.resolved' && event.action,
      ),
    ).toEqual(['decline', 'cancel'])
    expect(errors).toEqual([])
  })

  it('shows a URL elicitation’s address and origin, and opens it only on a click, without opener or referrer', async () => {
    const { page, errors } = await openShell()
    const target = `${daemon.info.url}/nothing-here?step=1`
    await callTool(page, 'trigger-url-elicitation', { url: target })
    const dialog = page.getByTestId('input-dialog')
    await dialog.waitFor({ timeout: 10_000 })
    expect(await dialog.getByTestId('input-url').textContent()).toBe(target)
    // The call that asked, with its arguments.
    expect(
      JSON.parse((await dialog.getByTestId('input-call-arguments').textContent()) ?? ''),
    ).toMatchObject({
      url: target,
    })
    expect(await dialog.getByTestId('input-url-origin').textContent()).toBe(new URL(target).origin)
    expect(page.context().pages()).toHaveLength(1)

    const opened = page.context().waitForEvent('page')
    await dialog.getByTestId('input-url-open').click()
    const tab = await opened
    await tab.waitForLoadState('domcontentloaded')
    expect(tab.url()).toBe(target)
    expect(await tab.evaluate(() => [window.opener === null, document.referrer])).toEqual([
      true,
      '',
    ])
    await tab.close()

    const card = page.locator('[data-testid="call-card"][data-state="done"]')
    await card.waitFor({ timeout: 10_000 })
    expect(await card.getByTestId('result').textContent()).toContain(
      'User completed the URL elicitation flow.',
    )
    expect(errors).toEqual([])
  })

  it('shows a sampling request and sends the reply a person wrote', async () => {
    const { page, errors } = await openShell()
    await callTool(page, 'trigger-sampling-request', {
      prompt: 'Name a colour',
      maxTokens: '50',
    })
    const dialog = page.getByTestId('input-dialog')
    await dialog.waitFor({ timeout: 10_000 })
    expect(await dialog.getByTestId('input-messages').textContent()).toContain(
      'Resource trigger-sampling-request context: Name a colour',
    )
    expect(await dialog.getByTestId('input-system-prompt').textContent()).toBe(
      'You are a helpful test server.',
    )
    expect(await dialog.getByTestId('input-max-tokens').textContent()).toBe('50')
    const reply = dialog.getByTestId('input-reply')
    expect(await reply.evaluate((element) => element === document.activeElement)).toBe(true)
    await reply.fill('Teal, like a duck’s wing.')
    await dialog.getByRole('button', { name: 'Send reply' }).click()

    const card = page.locator('[data-testid="call-card"][data-state="done"]')
    await card.waitFor({ timeout: 10_000 })
    expect(await card.getByTestId('result').textContent()).toContain('Teal, like a duck’s wing.')
    expect(await card.getByTestId('input-reply-sent').textContent()).toBe(
      'Teal, like a duck’s wing.',
    )
    expect(errors).toEqual([])
  })

  it('sends a person’s decline of a sampling request to the server', async () => {
    const { page, errors, session } = await openShell()
    await callTool(page, 'trigger-sampling-request', { prompt: 'Anything' })
    const dialog = page.getByTestId('input-dialog')
    await dialog.getByRole('button', { name: 'Decline' }).click()
    await dialog.waitFor({ state: 'detached' })
    const card = page.locator('[data-testid="call-card"]').first()
    await card.getByTestId('input-resolution').waitFor()
    expect(await card.getByTestId('input-resolution').textContent()).toMatch(
      /^Declined by WebShell tab/,
    )
    const resolved = resolvedEvents(await daemon.events(session))
    expect(resolved).toMatchObject([{ action: 'decline' }])
    // The server hears the refusal: its tool fails with it instead of getting a reply.
    const ended = page.locator('[data-testid="call-card"][data-state="error"]')
    await ended.waitFor()
    expect(await ended.getByTestId('result').textContent()).toMatch(
      /^MCP error -1: declined by WebShell tab/,
    )
    expect(errors).toEqual([])
  })

  it('closes the dialog when the input is answered elsewhere, and says who answered', async () => {
    const { page, errors } = await openShell()
    await callTool(page, 'trigger-elicitation-request')
    const dialog = page.getByTestId('input-dialog')
    await dialog.waitFor({ timeout: 10_000 })
    const inputId = await dialog.getAttribute('data-input-id')
    const answered = await daemon.api(`/inputs/${inputId}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'decline' }),
    })
    expect(answered.status).toBe(200)
    await dialog.waitFor({ state: 'detached' })
    const card = page.locator('[data-testid="call-card"][data-state="done"]')
    await card.waitFor({ timeout: 10_000 })
    expect(await card.getByTestId('input-resolution').textContent()).toMatch(/^Declined by /)
    expect(await card.getByTestId('input-resolution').textContent()).not.toMatch(/WebShell/)
    expect(errors).toEqual([])
  })
})
