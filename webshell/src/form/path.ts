// JSON paths as a person reads them (`traveller.name`, `stops[0]`, `tags[]` for an array's item
// schema), used in error messages and unsupported-schema reasons, and turned into element ids.

/** One step into form state or arguments: a property key or an array index. */
export type PathSegment = string | number

// Keys that read unambiguously after a dot; anything else is quoted so paths stay unambiguous.
const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/

export function childPath(parent: string, key: string): string {
  if (!PLAIN_KEY.test(key)) return `${parent}[${JSON.stringify(key)}]`
  return parent === '' ? key : `${parent}.${key}`
}

export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`
}

/** The path of an array's item schema, used only in reasons about the schema itself. */
export function itemsSchemaPath(parent: string): string {
  return `${parent}[]`
}

export function formatPath(segments: readonly PathSegment[]): string {
  return segments.reduce<string>(
    (path, segment) =>
      typeof segment === 'number' ? itemPath(path, segment) : childPath(path, segment),
    '',
  )
}

/** True when `path` is `base` itself or lies inside it. */
export function isWithin(path: string, base: string): boolean {
  if (base === '') return true
  return path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}[`)
}

/**
 * An element id for a path. Every character outside [A-Za-z0-9_] is spelled out as its code, so
 * distinct paths never share an id; ids never hold spaces, since aria-describedby splits on them.
 */
export function pathId(prefix: string, path: string, suffix: string): string {
  const encoded = path.replace(
    /[^A-Za-z0-9_]/gu,
    (char) => `-${char.codePointAt(0)?.toString(16)}-`,
  )
  return `${prefix.replace(/\s/gu, '_')}-${suffix}-${encoded}`
}
