// The WebShell's Prompts and Resources panes against server-everything, in a real browser: a
// prompt got with arguments completed as they are typed, text and blob resources and a template
// instance read, and resources that tool results link to or embed opened in the Resources pane.

import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanup, type Daemon } from '../../daemon/test/harness.js'
import { startInProcess } from '../../daemon/test/in-process.js'
import { everything, offeringsFixture } from '../../daemon/test/offerings-rig.js'
import { openPage, useBrowser } from './browser.js'

const browser = useBrowser()

/**
 * One daemon for the file, with server-everything and the offerings fixture side by side: each test
 * reads only what its own steps made (its prompt, its reads, its calls, its subscription).
 */
let daemon: Daemon
beforeAll(async () => {
  daemon = await startInProcess({
    mcpServers: { every: everything(), off: offeringsFixture('legacy') },
  })
  await Promise.all([daemon.waitForStatus('every', 'ready'), daemon.waitForStatus('off', 'ready')])
})
afterAll(cleanup)

async function openShell(): Promise<{ daemon: Daemon; page: Page; errors: string[] }> {
  const { page, errors } = await openPage(browser())
  // Under the test's own limit, so a wait that fails names what it waited for.
  page.setDefaultTimeout(15_000)
  await page.goto(`${daemon.info.url}#token=${daemon.info.token}`)
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor()
  return { daemon, page, errors }
}

async function openPane(page: Page, server: string, pane: string): Promise<void> {
  await page
    .getByTestId(`server-${server}`)
    .getByRole('button', { name: server, exact: true })
    .click()
  await page.getByTestId(`tab-${pane}`).click()
  await page.getByTestId(`${pane}-pane`).waitFor()
}

describe('the Prompts pane', () => {
  it('gets a prompt with arguments completed as they are typed, and shows its messages', async () => {
    const { daemon, page, errors } = await openShell()
    await openPane(page, 'every', 'prompts')
    await page.locator('[data-testid="prompt"][data-prompt="completable-prompt"]').click()
    const form = page.getByTestId('prompt-form')
    const department = form.getByRole('combobox', { name: 'department' })
    await department.pressSequentially('En')
    const suggestions = form.getByTestId('suggestions').first()
    await suggestions.getByRole('option', { name: 'Engineering' }).waitFor()
    await department.press('ArrowDown')
    await department.press('Enter')
    expect(await department.inputValue()).toBe('Engineering')
    // The second argument's completions depend on the first: the server gets it as context.
    const name = form.getByRole('combobox', { name: 'name' })
    await name.focus()
    await name.pressSequentially('A')
    await form.getByRole('option', { name: 'Alice' }).click()
    expect(await name.inputValue()).toBe('Alice')
    await form.getByRole('button', { name: 'Get prompt' }).click()
    const message = page.getByTestId('prompt-message')
    await message.first().waitFor()
    expect(await message.count()).toBe(1)
    expect(await message.getAttribute('data-role')).toBe('user')
    expect(await message.textContent()).toContain(
      'Please promote Alice to the head of the Engineering team.',
    )
    const got = await daemon.waitForEvent((event) => event.type === 'prompt.got')
    expect(got).toMatchObject({
      server: 'every',
      prompt: 'completable-prompt',
      arguments: { department: 'Engineering', name: 'Alice' },
    })
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})

describe('the Resources pane', () => {
  it('reads a text resource, and text and blob template instances', async () => {
    const { page, errors } = await openShell()
    await openPane(page, 'every', 'resources')
    const shown = page.getByTestId('resource-shown')
    await page
      .locator('[data-testid="resource"][data-uri="demo://resource/static/document/features.md"]')
      .click()
    await page.locator('[data-testid="resource-shown"][data-state="read"]').waitFor()
    expect(await shown.getByTestId('resource-text').textContent()).toContain(
      'Everything Server - Features',
    )

    await page
      .locator(
        '[data-testid="template"][data-template="demo://resource/dynamic/text/{resourceId}"]',
      )
      .click()
    const form = page.getByTestId('template-form')
    await form.getByRole('combobox', { name: 'resourceId' }).fill('5')
    expect(await form.getByTestId('template-uri').textContent()).toBe(
      'demo://resource/dynamic/text/5',
    )
    await form.getByRole('button', { name: 'Read' }).click()
    await page
      .locator(
        '[data-testid="resource-shown"][data-state="read"][data-uri="demo://resource/dynamic/text/5"]',
      )
      .waitFor()
    expect(await shown.getByTestId('resource-text').textContent()).toContain(
      'Resource 5: This is a plaintext resource',
    )

    await page
      .locator(
        '[data-testid="template"][data-template="demo://resource/dynamic/blob/{resourceId}"]',
      )
      .click()
    await form.getByRole('combobox', { name: 'resourceId' }).fill('7')
    await form.getByRole('button', { name: 'Read' }).click()
    const blob = page.locator(
      '[data-testid="resource-shown"][data-uri="demo://resource/dynamic/blob/7"] [data-testid="resource-blob"]',
    )
    await blob.waitFor()
    // A small text blob shows as its text; it is saved as a file holding exactly its bytes.
    expect(await blob.textContent()).toMatch(/blob shown as text, \d+ bytes, text\/plain/)
    expect(await blob.locator('pre').textContent()).toMatch(
      /^Resource 7: This is a base64 blob created at/,
    )
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      blob.getByTestId('download').click(),
    ])
    expect(download.suggestedFilename()).toBe('7')
    const stream = await download.createReadStream()
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    expect(Buffer.concat(chunks).toString()).toMatch(
      /^Resource 7: This is a base64 blob created at/,
    )
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('opens a resource a tool result links to, and one it embeds', async () => {
    const { daemon, page, errors } = await openShell()
    const call = async (tool: string, args: Record<string, unknown>) => {
      const response = await daemon.api('/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool, arguments: args }),
      })
      expect(response.status).toBe(200)
    }
    await call('mcp_every_get-resource-links', { count: 2 })
    const links = page.locator(
      '[data-testid="call-card"][data-state="done"] [data-testid="result"]',
    )
    await links.waitFor()
    const textLink = links.locator('.result-resource').filter({ hasText: 'Text Resource 2' })
    await textLink.getByTestId('open-resource').click()
    const shown = page.locator(
      '[data-testid="resource-shown"][data-uri="demo://resource/dynamic/text/2"][data-state="read"]',
    )
    await shown.waitFor()
    expect(await page.getByTestId('pane-scope').textContent()).toBe('every')
    expect(await shown.getByTestId('resource-text').textContent()).toContain('Resource 2:')

    await call('mcp_every_get-resource-reference', { resourceType: 'Blob', resourceId: 4 })
    const embedded = page
      .locator('[data-testid="call-card"][data-state="done"]')
      .filter({ hasText: 'demo://resource/dynamic/blob/4' })
      .locator('[data-testid="result"] .result-resource')
    await embedded.getByTestId('open-resource').click()
    const fromResult = page.locator(
      '[data-testid="resource-shown"][data-uri="demo://resource/dynamic/blob/4"][data-state="read"]',
    )
    await fromResult.waitFor()
    expect(await fromResult.textContent()).toContain('as the tool result embedded it')
    expect(await fromResult.getByTestId('resource-blob').textContent()).toMatch(/\d+ bytes/)
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('reads a followed resource again when its server says it changed', async () => {
    const { daemon, page, errors } = await openShell()
    await openPane(page, 'off', 'resources')
    await page.locator('[data-testid="resource"][data-uri="note://one"]').click()
    const shown = page.locator('[data-testid="resource-shown"][data-uri="note://one"]')
    await shown.getByTestId('resource-text').filter({ hasText: 'note://one (legacy) v0' }).waitFor()
    await shown.getByRole('button', { name: 'Follow updates' }).click()
    await shown.getByRole('button', { name: 'Stop following', pressed: true }).waitFor()
    await daemon.waitForEvent((event) => event.type === 'resource.subscribed')
    const response = await daemon.api('/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mcp_off_touch', arguments: { uri: 'note://one' } }),
    })
    expect(response.status).toBe(200)
    await shown.getByTestId('resource-text').filter({ hasText: 'note://one (legacy) v1' }).waitFor()
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })
})
