import { describe, expect, it } from 'vitest'
import { expandTemplate, templateVariables } from './uri-template.js'

describe('resource template variables', () => {
  it('are read from every expression, with operators and modifiers left out', () => {
    expect(templateVariables('demo://resource/dynamic/text/{resourceId}')).toEqual(['resourceId'])
    expect(templateVariables('file:///{+path}{?query,page}{&x*}{#frag:3}')).toEqual([
      'path',
      'query',
      'page',
      'x',
      'frag',
    ])
    expect(templateVariables('a://{id}/b/{id}')).toEqual(['id'])
    expect(templateVariables('plain://no/variables')).toEqual([])
  })

  it('expand into a URI with the values escaped', () => {
    expect(expandTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '3' })).toBe(
      'demo://resource/dynamic/text/3',
    )
    expect(expandTemplate('user://{name}', { name: 'a b/c' })).toBe('user://a%20b%2Fc')
    expect(expandTemplate('q://x{?a,b}', { a: '1', b: '' })).toBe('q://x?a=1')
  })
})
