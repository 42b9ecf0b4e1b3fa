// The `Mcp-Param-*` headers of a 2026-07-28 `tools/call`, checked against the arguments the tool
// marks with `x-mcp-header` in its inputSchema before anything runs: an argument the body carries
// must arrive in its header too, decoded (`=?base64?…?=`) to the same value, or the call is refused.

/** The JSON-RPC error the 2026-07-28 spec gives when headers and body disagree. */
export const HEADER_MISMATCH = -32020

const HEADER_PREFIX = 'Mcp-Param-'
const BASE64_PREFIX = '=?base64?'
const BASE64_SUFFIX = '?='
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const CANONICAL_DECIMAL = /^-?\d+(\.\d+)?$/

interface Declaration {
  /** The argument's path through nested `properties`. */
  path: string[]
  header: string
  type: unknown
}

/**
 * The `x-mcp-header` declarations reachable through `properties` alone; the spec allows them
 * nowhere else, so one found under another keyword is the server's fault, not the client's, and
 * is left for the server to answer.
 */
function declarations(schema: unknown, path: string[] = []): Declaration[] {
  if (schema === null || typeof schema !== 'object') return []
  const node = schema as Record<string, unknown>
  const found: Declaration[] = []
  const header = node['x-mcp-header']
  if (path.length > 0 && typeof header === 'string' && header !== '') {
    found.push({ path, header, type: node.type })
  }
  const properties = node.properties
  if (properties !== null && typeof properties === 'object') {
    for (const [key, child] of Object.entries(properties)) {
      found.push(...declarations(child, [...path, key]))
    }
  }
  return found
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** How the spec writes a primitive argument in its header; undefined for any other value. */
function headerForm(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' && Number.isFinite(value)) {
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value)
  }
  return undefined
}

/** A header value as sent, or decoded from its Base64 sentinel; undefined when that is invalid. */
function decoded(value: string): string | undefined {
  if (!value.startsWith(BASE64_PREFIX) || !value.endsWith(BASE64_SUFFIX)) return value
  const payload = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length)
  if (!CANONICAL_BASE64.test(payload)) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'))
  } catch {
    return undefined
  }
}

/**
 * Why the headers of a call with these `args` do not fit the tool's `inputSchema`, as a message
 * that says what to send; undefined when they fit. An argument absent or null needs no header.
 */
export function paramHeaderProblem(
  inputSchema: unknown,
  args: unknown,
  headers: Headers,
): string | undefined {
  for (const { path, header, type } of declarations(inputSchema)) {
    const body = valueAt(args, path)
    const expected = headerForm(body)
    if (expected === undefined) continue
    const name = `${HEADER_PREFIX}${header}`
    const argument = `${path.join('.')}=${JSON.stringify(body)}`
    const sent = headers.get(name)
    if (sent === null) {
      return `the body carries ${argument} but the ${name} header is absent; send the argument in that header too`
    }
    const value = decoded(sent)
    if (value === undefined) {
      return `the ${name} header's =?base64?…?= value is not canonical Base64 of UTF-8 text`
    }
    const numeric = (type === 'integer' || type === 'number') && typeof body === 'number'
    const same =
      numeric && CANONICAL_DECIMAL.test(value) ? Number(value) === body : value === expected
    if (!same) {
      return `the ${name} header decodes to ${JSON.stringify(value)} but the body carries ${argument}; send the same value in both`
    }
  }
  return undefined
}

/** The 400 that refuses a request whose headers and body disagree, answering its id. */
export function headerMismatch(id: unknown, problem: string): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      error: {
        code: HEADER_MISMATCH,
        message: `Bad Request: headers and body disagree: ${problem}`,
      },
    },
    { status: 400 },
  )
}
