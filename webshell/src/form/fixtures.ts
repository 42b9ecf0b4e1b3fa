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

/**
 * The form `@modelcontextprotocol/server-everything` asks for in `trigger-elicitation-request`
 * (copied from its 2026.8.31 release): every kind of field MCP's elicitation schema allows.
 */
export const everythingElicitationSchema: Record<string, unknown> = {
  type: 'object',
  properties: {
    name: {
      title: 'String',
      type: 'string',
      description: 'Your full, legal name',
    },
    check: {
      title: 'Boolean',
      type: 'boolean',
      description: 'Agree to the terms and conditions',
    },
    firstLine: {
      title: 'String with default',
      type: 'string',
      description: 'Favorite first line of a story',
      default: 'It was a dark and stormy night.',
    },
    email: {
      title: 'String with email format',
      type: 'string',
      format: 'email',
      description: 'Your email address (will be verified, and never shared with anyone else)',
    },
    homepage: {
      type: 'string',
      format: 'uri',
      title: 'String with uri format',
      description: 'Portfolio / personal website',
    },
    birthdate: {
      title: 'String with date format',
      type: 'string',
      format: 'date',
      description: 'Your date of birth',
    },
    integer: {
      title: 'Integer',
      type: 'integer',
      description:
        'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
      minimum: 1,
      maximum: 100,
      default: 42,
    },
    number: {
      title: 'Number in range 1-1000',
      type: 'number',
      description: 'Favorite number (there are no wrong answers)',
      minimum: 0,
      maximum: 1000,
      default: 3.14,
    },
    untitledSingleSelectEnum: {
      type: 'string',
      title: 'Untitled Single Select Enum',
      description: 'Choose your favorite friend',
      enum: ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'],
      default: 'Monica',
    },
    untitledMultipleSelectEnum: {
      type: 'array',
      title: 'Untitled Multiple Select Enum',
      description: 'Choose your favorite instruments',
      minItems: 1,
      maxItems: 3,
      items: {
        type: 'string',
        enum: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'],
      },
      default: ['Guitar'],
    },
    titledSingleSelectEnum: {
      type: 'string',
      title: 'Titled Single Select Enum',
      description: 'Choose your favorite hero',
      oneOf: [
        {
          const: 'hero-1',
          title: 'Superman',
        },
        {
          const: 'hero-2',
          title: 'Green Lantern',
        },
        {
          const: 'hero-3',
          title: 'Wonder Woman',
        },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      title: 'Titled Multiple Select Enum',
      description: 'Choose your favorite types of fish',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          {
            const: 'fish-1',
            title: 'Tuna',
          },
          {
            const: 'fish-2',
            title: 'Salmon',
          },
          {
            const: 'fish-3',
            title: 'Trout',
          },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: {
      type: 'string',
      title: 'Legacy Titled Single Select Enum',
      description: 'Choose your favorite type of pet',
      enum: ['pet-1', 'pet-2', 'pet-3', 'pet-4', 'pet-5'],
      enumNames: ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'],
      default: 'pet-1',
    },
  },
  required: ['name'],
}
