// Reads the ways a schema spells "one of these values, shown with these names": a `oneOf`/`anyOf`
// of `{ const, title }` branches (MCP's titled enums), and the legacy `enumNames` beside `enum`.

type Schema = Record<string, unknown>

/** The values a union of constants allows, each with its title when it has one. */
export interface ConstUnion {
  keyword: 'oneOf' | 'anyOf'
  values: unknown[]
  labels: (string | undefined)[]
}

// Keywords a branch may carry and still be just a named constant.
const CONST_BRANCH_KEYWORDS = new Set(['const', 'title', 'description', 'type'])

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The constants of a `oneOf` or `anyOf` whose every branch is a constant (null included, so it
 * can fold into nullable); null when the schema has no such union.
 */
export function constUnion(schema: Schema): ConstUnion | null {
  const keywords = (['oneOf', 'anyOf'] as const).filter((name) => Object.hasOwn(schema, name))
  const [keyword] = keywords
  if (keyword === undefined || keywords.length > 1) return null
  const branches = schema[keyword]
  if (!Array.isArray(branches) || branches.length === 0) return null
  // `{ type: 'null' }` is the constant null, spelled as a type.
  const valueOf = (branch: unknown): { value: unknown } | null => {
    if (!isSchema(branch)) return null
    if (!Object.keys(branch).every((name) => CONST_BRANCH_KEYWORDS.has(name))) return null
    if (Object.hasOwn(branch, 'const')) return { value: branch.const }
    return branch.type === 'null' ? { value: null } : null
  }
  const read = branches.map(valueOf)
  if (!read.every((entry) => entry !== null)) return null
  const values = read.map((entry) => entry.value)
  // A lone constant beside null is an ordinary nullable union, handled where the others are.
  if (values.filter((value) => value !== null).length < 2) return null
  return {
    keyword,
    values,
    labels: branches.map((branch: Schema) =>
      typeof branch.title === 'string' ? branch.title : undefined,
    ),
  }
}

/** `enumNames`, when it names every value of `enum` (anything else is ignored, not guessed at). */
export function enumNames(schema: Schema): (string | undefined)[] | undefined {
  const names = schema.enumNames
  const values = schema.enum
  if (!Array.isArray(names) || !Array.isArray(values) || names.length !== values.length) {
    return undefined
  }
  return names.map((name) => (typeof name === 'string' ? name : undefined))
}
