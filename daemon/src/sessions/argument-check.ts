// A call's arguments checked on the one call path, before anything of the call is recorded: what
// the transcript would have to shorten (nesting, size) and what the tool's input schema refuses,
// each refused with a reason that says what to fix; never passed on different from what is shown.

import type { Tool } from '@modelcontextprotocol/server'
import { ErrorCode, FerryError } from '../errors.js'
import type { Log } from '../log.js'
import type { ClientRef, TranscriptEventBody } from '../protocol/index.js'
import { SchemaValidator } from '../tools/schema-validator.js'
import {
  MAX_ARGUMENTS_DEPTH,
  MAX_EVENT_BYTES,
  nestsDeeperThan,
  sizeText,
  storedBytes,
} from './event-bounds.js'

export type CallRequested = Extract<TranscriptEventBody, { type: 'call.requested' }>

function refusal(message: string): FerryError {
  return new FerryError(ErrorCode.InvalidArguments, message)
}

/** Checks a call's arguments, compiling each input schema once. */
export class ArgumentCheck {
  private readonly validator: SchemaValidator

  constructor(log: Log) {
    this.validator = new SchemaValidator('arguments', (tool, error) =>
      log({ kind: 'call.schema_unchecked', tool, error }),
    )
  }

  /**
   * Refuses (`invalid_arguments`) a call of `tool` whose `requested` event, from `client`, the
   * transcript could not keep whole, or whose arguments do not fit the tool's input schema. A schema
   * that cannot be compiled leaves the arguments to the server.
   */
  check(tool: Tool, requested: CallRequested, client: ClientRef | null): void {
    const args: unknown = requested.arguments
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw refusal('arguments must be a JSON object, such as {"text":"hi"}')
    }
    // Depth first: the size and schema checks below recurse, and would overflow on deep nesting.
    if (nestsDeeperThan(args, MAX_ARGUMENTS_DEPTH)) {
      throw refusal(
        `arguments nest objects and arrays deeper than ${MAX_ARGUMENTS_DEPTH} levels, more than a transcript keeps whole; send flatter arguments`,
      )
    }
    const bytes = storedBytes(requested, client)
    if (bytes > MAX_EVENT_BYTES) {
      throw refusal(
        `arguments put the call's transcript event ${sizeText(bytes - MAX_EVENT_BYTES)} over the ${sizeText(MAX_EVENT_BYTES)} limit, more than a transcript keeps whole; send smaller arguments`,
      )
    }
    const problem = this.validator.checkOf(tool.inputSchema, tool.name)(args)
    if (problem !== undefined) {
      throw refusal(
        `arguments do not fit the tool's input schema: ${problem}; see its inputSchema in the tool list`,
      )
    }
  }
}
