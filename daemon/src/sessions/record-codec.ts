// One stored event per line: `<crc32 hex> <json>\n`. The checksum tells a damaged record from a
// good one; a last line without its newline is a torn write.

import { crc32 } from 'node:zlib'

/** The stored line of a record already serialised as `json`. */
export function encodeJson(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`
}

export function encodeRecord(value: unknown): string {
  return encodeJson(JSON.stringify(value))
}

export type DecodedRecord = { ok: true; value: unknown } | { ok: false; reason: string }

export function decodeRecord(line: string): DecodedRecord {
  const space = line.indexOf(' ')
  if (space !== 8) return { ok: false, reason: 'no checksum' }
  const json = line.slice(space + 1)
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) {
    return { ok: false, reason: 'checksum mismatch' }
  }
  try {
    return { ok: true, value: JSON.parse(json) }
  } catch {
    return { ok: false, reason: 'not JSON' }
  }
}
