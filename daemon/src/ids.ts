// Random hex ids made on every request (a call's id, a REST client's id), drawn from the random
// UUIDs Node makes out of a batched pool: one id costs no trip to the system's random source.

import { randomUUID } from 'node:crypto'

/** `digits` random hex digits, at most 12 (48 bits). */
export function randomHex(digits: number): string {
  const uuid = randomUUID()
  // The first 12 hex digits of a version 4 UUID are random; its version digit follows them.
  return `${uuid.slice(0, 8)}${uuid.slice(9, 13)}`.slice(0, digits)
}
