// `$VAR`, `${VAR}` and `${VAR:-default}` expansion against an explicit environment; `$$` is a literal `$`.

export type ExpandResult = { ok: true; value: string } | { ok: false; variable: string }

const BARE_NAME = /^[A-Za-z_][A-Za-z0-9_]*/
const BRACED = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/

export function expandVars(input: string, env: Record<string, string | undefined>): ExpandResult {
  let out = ''
  let i = 0
  while (i < input.length) {
    const dollar = input.indexOf('$', i)
    if (dollar === -1) {
      out += input.slice(i)
      break
    }
    out += input.slice(i, dollar)
    const next = input[dollar + 1]
    if (next === '$') {
      out += '$'
      i = dollar + 2
      continue
    }
    if (next === '{') {
      const close = input.indexOf('}', dollar + 2)
      const match = close === -1 ? null : BRACED.exec(input.slice(dollar + 2, close))
      const name = match?.[1]
      if (match !== null && name !== undefined) {
        const fallback = match[2]
        const value = lookup(env, name)
        // Like the shell, `:-` also replaces a variable that is set but empty.
        if (fallback !== undefined && (value === undefined || value === '')) out += fallback
        else if (value === undefined) return { ok: false, variable: name }
        else out += value
        i = close + 1
        continue
      }
    } else {
      const name = BARE_NAME.exec(input.slice(dollar + 1))?.[0]
      if (name !== undefined) {
        const value = lookup(env, name)
        if (value === undefined) return { ok: false, variable: name }
        out += value
        i = dollar + 1 + name.length
        continue
      }
    }
    // A `$` that starts no variable reference stays as written.
    out += '$'
    i = dollar + 1
  }
  return { ok: true, value: out }
}

function lookup(env: Record<string, string | undefined>, name: string): string | undefined {
  // Own properties only, so `$constructor` never resolves to Object.prototype members.
  if (!Object.hasOwn(env, name)) return undefined
  const value = env[name]
  return typeof value === 'string' ? value : undefined
}
