// Input schemas shared by the form's unit tests, written as MCP servers send them (the first is
// what zod's toJSONSchema emits for the e2e fixture tool `plan_trip`).

export const planTripSchema: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    destination: { type: 'string', minLength: 1, description: 'Where to go' },
    mode: { type: 'string', enum: ['train', 'bus', 'ferry'], description: 'How to travel' },
    stops: {
      minItems: 1,
      type: 'array',
      items: { type: 'string' },
      description: 'Places on the way',
    },
    traveller: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
      },
      required: ['name'],
    },
    steps: { default: 4, type: 'integer', minimum: 1, maximum: 50 },
    delayMs: { default: 150, type: 'integer', minimum: 0, maximum: 5000 },
  },
  required: ['destination', 'mode', 'stops', 'traveller'],
}

/** A nested object, an enum, an array of objects, a nullable and a few defaults. */
export const orderSchema: Record<string, unknown> = {
  type: 'object',
  properties: {
    customer: {
      type: 'object',
      title: 'Customer',
      properties: {
        email: { type: 'string', format: 'email', pattern: '^[^@\\s]+@[^@\\s]+$' },
        address: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            zip: { type: 'string', pattern: '^[0-9]{5}$' },
          },
          required: ['city'],
        },
      },
      required: ['email', 'address'],
    },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          quantity: { type: 'integer', exclusiveMinimum: 0, default: 1 },
          gift: { type: 'boolean' },
        },
        required: ['sku', 'quantity'],
      },
    },
    priority: { type: 'string', enum: ['low', 'normal', 'high'], default: 'normal' },
    note: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }], description: 'Note' },
    express: { type: 'boolean', default: true },
    notify: { type: 'boolean' },
    discount: { type: 'number', minimum: 0, maximum: 1 },
    tags: { type: 'array', items: { type: 'string' }, default: ['web'] },
  },
  required: ['customer', 'lines', 'note'],
  additionalProperties: false,
}
