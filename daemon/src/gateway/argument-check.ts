// A gateway call's arguments checked against the tool's `inputSchema` before anything runs, with
// the shared schema validator, so a call that cannot succeed never asks the person or reaches the
// server, and the client hears which field to fix.

import type { Tool } from '@modelcontextprotocol/server'
import type { Log } from '../log.js'
import { SchemaValidator } from '../tools/schema-validator.js'

/** Checks arguments against input schemas, compiling each schema once. */
export class ArgumentCheck {
  private readonly validator: SchemaValidator

  constructor(log: Log) {
    this.validator = new SchemaValidator('arguments', (tool, error) =>
      log({ kind: 'gateway.schema_unchecked', tool, error }),
    )
  }

  /**
   * Why `args` do not fit `tool`'s input schema, naming the field (`arguments/text must be
   * string`), or undefined when they fit or the schema cannot be compiled (the server decides).
   */
  problem(tool: Tool, args: Record<string, unknown>): string | undefined {
    return this.validator.checkOf(tool.inputSchema, tool.name)(args)
  }
}
