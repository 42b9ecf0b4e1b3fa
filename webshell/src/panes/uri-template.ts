// A resource template's variables (RFC 6570) and the URI made from values for them. Expansion is
// url-template's; the variable names are read here, since that library only expands.

import { parseTemplate } from 'url-template'

const EXPRESSION = /\{([^{}]*)\}/g
const OPERATORS = new Set(['+', '#', '.', '/', ';', '?', '&'])

/** The variable names of `template`, each once, in order of first appearance. */
export function templateVariables(template: string): string[] {
  const names: string[] = []
  for (const match of template.matchAll(EXPRESSION)) {
    let body = match[1] ?? ''
    if (OPERATORS.has(body[0] ?? '')) body = body.slice(1)
    for (const spec of body.split(',')) {
      // A prefix (`var:3`) or explode (`var*`) modifier is not part of the name.
      const name = spec.replace(/(:\d+|\*)$/, '').trim()
      if (name !== '' && !names.includes(name)) names.push(name)
    }
  }
  return names
}

/** The URI `template` names with these values; an empty value leaves its variable out. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  const given: Record<string, string> = {}
  for (const [name, value] of Object.entries(values)) if (value !== '') given[name] = value
  return parseTemplate(template).expand(given)
}
