// A gateway call's arguments checked against the tool's `inputSchema` before anything runs, with
// the SDK's Ajv validator, so a call that cannot succeed never asks the person or reaches the
// server, and the client hears which field to fix.

import type { JsonSchemaType, Tool } from '@modelcontextprotocol/server'
import {
  Ajv,
  AjvJsonSchemaValidator,
  addFormats,
} from '@modelcontextprotocol/server/validators/ajv'
import { errorMessage } from '../errors.js'
import type { Log } from '../log.js'

type Check = (args: unknown) => string | undefined

/**
 * A schema `pattern` is left to the server: the arguments come from the client, and a pattern
 * that backtracks on them would stall the daemon, whose regular expressions cannot be timed out.
 */
const uncheckedPattern = Object.assign(
  (pattern: string) => ({ test: () => true, toString: () => `unchecked:${pattern}` }),
  { code: 'unchecked pattern' },
)

function newValidator(): AjvJsonSchemaValidator {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: uncheckedPattern },
  })
  addFormats(ajv)
  return new AjvJsonSchemaValidator(ajv)
}

/** Checks arguments against input schemas, compiling each schema once. */
export class ArgumentCheck {
  private readonly validator = newValidator()
  private readonly checks = new WeakMap<object, Check>()

  constructor(private readonly log: Log) {}

  /**
   * Why `args` do not fit `tool`'s input schema, naming the field (`arguments/text must be
   * string`), or undefined when they fit or the schema cannot be compiled (the server decides).
   */
  problem(tool: Tool, args: Record<string, unknown>): string | undefined {
    return this.checkOf(tool)(args)
  }

  private checkOf(tool: Tool): Check {
    const schema = tool.inputSchema
    const known = this.checks.get(schema)
    if (known !== undefined) return known
    let check: Check
    try {
      const validate = this.validator.getValidator(schema as JsonSchemaType)
      check = (args) => {
        const result = validate(args)
        return result.valid ? undefined : result.errorMessage.replace(/(^|, )data/g, '$1arguments')
      }
    } catch (error) {
      this.log({ kind: 'gateway.schema_unchecked', tool: tool.name, error: errorMessage(error) })
      check = () => undefined
    }
    this.checks.set(schema, check)
    return check
  }
}
