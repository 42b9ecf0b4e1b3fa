import { describe, expect, it } from 'vitest'
import { checkCspDomains, isLocalOrSpecialHost, MAX_CSP_ENTRIES } from './csp-domains.js'

const reasonFor = (directive: string, entry: unknown) => {
  const checked = checkCspDomains({ [directive]: [entry] })
  return checked.ok ? undefined : checked.reason
}

describe('checkCspDomains', () => {
  it('accepts scheme://host[:port] entries with an optional leading *. label', () => {
    const csp = {
      connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'],
      resourceDomains: [
        'https://*.cdn.example.com',
        'http://203.0.113.9',
        'https://CDN.Example.com',
      ],
      frameDomains: ['https://[2001:db8::1]:8080'],
      baseUriDomains: ['https://base.example.com'],
      other: 'dropped',
    }
    expect(checkCspDomains(csp)).toEqual({
      ok: true,
      csp: {
        connectDomains: csp.connectDomains,
        resourceDomains: csp.resourceDomains,
        frameDomains: csp.frameDomains,
        baseUriDomains: csp.baseUriDomains,
      },
    })
    expect(checkCspDomains(undefined)).toEqual({ ok: true, csp: {} })
    expect(checkCspDomains({})).toEqual({ ok: true, csp: {} })
  })

  it('refuses entries that could change the policy: quotes, separators, spaces, paths', () => {
    const separator = "contains whitespace, a quote, ';' or ','"
    const form = 'is not of the form scheme://host[:port] with scheme http, https, ws or wss'
    const cases: Array<[string, string]> = [
      ['https://a.example.com; script-src *', separator],
      ["'unsafe-inline'", separator],
      ['https://a.example.com,https://b.example.com', separator],
      ['https://a.example.com https://b.example.com', separator],
      ['"https://a.example.com"', separator],
      ['https://a.example.com/', form],
      ['https://a.example.com/path', form],
      ['https://a.example.com?x', form],
      ['https://user@a.example.com', form],
      ['javascript://a.example.com', form],
      ['data:text/html,x', separator],
      ['*', form],
      ['https://*', form],
      ['https://a.*.example.com', form],
      ['a.example.com', form],
      ['https://a.example.com:*', form],
      ['https://a.example.com:99999', 'has port 99999, above 65535'],
      [
        'https://*.com',
        "has a '*.' wildcard that is not followed by a domain of at least two labels",
      ],
      ['https://2130706433', 'has a host that is not in canonical form'],
      ['https://0x7f.0.0.1', 'has a host that is not in canonical form'],
    ]
    for (const [entry, problem] of cases) {
      expect(reasonFor('resourceDomains', entry), entry).toBe(
        `csp.resourceDomains entry ${JSON.stringify(entry)} ${problem}`,
      )
    }
  })

  it('refuses loopback, private, local and special-use hosts in every directive', () => {
    const local =
      'points at a loopback, private, local-network or special-use host, which an App may not reach'
    for (const entry of [
      'http://localhost:8080',
      'http://127.0.0.1',
      'https://10.1.2.3',
      'https://192.168.0.1',
      'https://172.20.0.1',
      'https://169.254.169.254',
      'http://[::1]:3000',
      'http://[fd00::1]',
      'http://[::ffff:7f00:1]',
      'https://*.app.localhost',
      'https://printer.local',
      'https://intranet',
      // The daemon's own origins, whatever its port.
      'http://localhost:4123',
      'http://127.0.0.1:4123',
      'http://[::1]:4123',
      'https://198.18.0.1',
      'https://198.19.255.254',
      'http://255.255.255.255',
      'http://224.0.0.251',
      'http://239.255.255.250:1900',
      'http://240.0.0.1',
      'http://[2002:7f00:1::]',
      'http://[2002:808:808::1]',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
      'http://[ff02::fb]',
      'http://[ff0e::1]',
      'http://[::7f00:1]',
      'http://[64:ff9b:1::a]',
      'http://[100::1]',
    ]) {
      for (const directive of [
        'connectDomains',
        'resourceDomains',
        'frameDomains',
        'baseUriDomains',
      ]) {
        expect(reasonFor(directive, entry), `${directive} ${entry}`).toBe(
          `csp.${directive} entry ${JSON.stringify(entry)} ${local}`,
        )
      }
    }
  })

  it('says which field is malformed', () => {
    expect(checkCspDomains('https://a.example.com')).toEqual({
      ok: false,
      reason: 'csp is not an object',
    })
    expect(checkCspDomains({ connectDomains: 'https://a.example.com' })).toEqual({
      ok: false,
      reason: 'csp.connectDomains is not a list',
    })
    expect(checkCspDomains({ frameDomains: ['https://a.example.com', 7] })).toEqual({
      ok: false,
      reason: 'csp.frameDomains[1] is not a string',
    })
    const many = Array.from({ length: MAX_CSP_ENTRIES + 1 }, (_, i) => `https://h${i}.example.com`)
    expect(checkCspDomains({ resourceDomains: many })).toEqual({
      ok: false,
      reason: `csp.resourceDomains has ${MAX_CSP_ENTRIES + 1} entries, at most ${MAX_CSP_ENTRIES} allowed`,
    })
    expect(reasonFor('resourceDomains', `https://${'a'.repeat(400)}.example.com`)).toMatch(
      /^csp\.resourceDomains entry "https:\/\/a{72}…" is longer than 300 characters$/,
    )
  })
})

describe('isLocalOrSpecialHost', () => {
  it('knows loopback, private, link-local, special-use and local names in every spelling', () => {
    for (const host of [
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.0.1',
      '::1',
      '[::1]',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'nas.local',
      'db.internal',
      'router.home.arpa',
      'intranet',
      '198.18.0.0',
      '198.19.1.1',
      '224.0.0.1',
      '255.255.255.255',
      '4294967295',
      '2002::1',
      '2001::1',
      'ff02::1',
      '::2',
      '::ffff:224.0.0.1',
    ]) {
      expect(isLocalOrSpecialHost(host), host).toBe(true)
    }
    for (const host of [
      'example.com',
      '8.8.8.8',
      '172.32.0.1',
      '100.128.0.1',
      '198.17.255.255',
      '198.20.0.1',
      '223.255.255.255',
      '2001:db8::1',
      '2001:1::1',
      '2003::1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      'localhost.example.com',
    ]) {
      expect(isLocalOrSpecialHost(host), host).toBe(false)
    }
  })
})
