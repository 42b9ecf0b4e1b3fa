// Settings paths as people read them (`mcpServers.github.args[2]`) and zod issues phrased with them.

import type { z } from 'zod'

export type PathSegment = string | number

export function formatPath(segments: readonly PropertyKey[]): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    else out += out === '' ? String(segment) : `.${String(segment)}`
  }
  return out
}

export function formatIssue(base: readonly PathSegment[], issue: z.core.$ZodIssue): string {
  return `${formatPath([...base, ...issue.path])}: ${describeIssue(issue)}`
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'int' ? 'expected an integer' : `expected ${issue.expected}`
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
    default:
      return issue.message
  }
}

export function unknownKeyWarnings(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  base: readonly PathSegment[],
): string[] {
  return Object.keys(value)
    .filter((key) => !known.has(key))
    .map((key) => `${formatPath([...base, key])}: unknown key, ignored`)
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
