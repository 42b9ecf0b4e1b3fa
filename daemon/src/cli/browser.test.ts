import { describe, expect, it } from 'vitest'
import { openInBrowser } from './browser.js'

describe('openInBrowser', () => {
  it('opens only http and https pages a server names, refusing other schemes before any launch', async () => {
    expect(await openInBrowser('file:///etc/passwd', {})).toBe(
      'not opened: only http and https pages are opened, not file:',
    )
    expect(await openInBrowser('javascript:alert(1)', {})).toBe(
      'not opened: only http and https pages are opened, not javascript:',
    )
    expect(await openInBrowser('not a url', {})).toBe('not opened: "not a url" is not a valid URL')
  })
})
