// JSON Schema checks with the SDK's bundled Ajv and formats, one compiled check per schema object:
// a call's arguments against its tool's input schema, and a person's answer against the schema a
// server's elicitation asked for.

import type { JsonSchemaType } from '@modelcontextprotocol/server'
import {
  Ajv,
  AjvJsonSchemaValidator,
  addFormats,
} from '@modelcontextprotocol/server/validators/ajv'
import { errorMessage } from '../errors.js'

/** Why a value does not fit, naming the field (`arguments/text must be string`), or undefined. */
export type SchemaCheck = (value: unknown) => string | undefined

/**
 * How long the reason may grow: a value may break its schema in thousands of places (every item of
 * a long array), and a message of megabytes says no more than its first problems do.
 */
export const MAX_PROBLEMS_TEXT = 1_000

/**
 * A schema `pattern` is left to whoever receives the value: the values come from outside, and a
 * pattern that backtracks on them would stall the daemon, whose regular expressions cannot be
 * timed out.
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
  // A masked field (elicitation's `format: password`) takes any string.
  ajv.addFormat('password', true)
  return new AjvJsonSchemaValidator(ajv)
}

export class SchemaValidator {
  private readonly validator = newValidator()
  private readonly checks = new WeakMap<object, SchemaCheck>()

  /**
   * @param root what the checked value is called in messages (`arguments`, `content`)
   * @param onUncompiled told (once per schema, with the `owner` it was asked for) when a schema
   *   cannot be compiled; its values then pass unchecked, for their receiver to judge
   */
  constructor(
    private readonly root: string,
    private readonly onUncompiled: (owner: string, error: string) => void,
  ) {}

  /** The check for `schema` (of `owner`, a tool or a server), compiled on first use. */
  checkOf(schema: object, owner: string): SchemaCheck {
    const known = this.checks.get(schema)
    if (known !== undefined) return known
    let check: SchemaCheck
    try {
      const validate = this.validator.getValidator(schema as JsonSchemaType)
      check = (value) => {
        const result = validate(value)
        return result.valid ? undefined : this.problems(result.errorMessage)
      }
    } catch (error) {
      this.onUncompiled(owner, errorMessage(error))
      check = () => undefined
    }
    this.checks.set(schema, check)
    return check
  }

  /** Ajv's reason with the value named `root`, cut after the whole problems that fit the bound. */
  private problems(reason: string): string {
    const named = reason.replace(/(^|, )data/g, `$1${this.root}`)
    if (named.length <= MAX_PROBLEMS_TEXT) return named
    const cut = named.lastIndexOf(`, ${this.root}`, MAX_PROBLEMS_TEXT)
    return `${named.slice(0, cut > 0 ? cut : MAX_PROBLEMS_TEXT)}, and more`
  }
}
