import { registerEnumType } from 'type-graphql';

/** GraphQL enum Access; its values are the core's access modes. */
export enum Access {
  READ_ONLY = 'READ_ONLY',
  READ_WRITE = 'READ_WRITE',
  WRITE_ONLY = 'WRITE_ONLY',
}

/** GraphQL enum BindingMode; its values are the core's binding modes. */
export enum BindingMode {
  CONTEXTUAL = 'CONTEXTUAL',
  STATIC = 'STATIC',
  PARAMETER = 'PARAMETER',
}

registerEnumType(Access, {
  name: 'Access',
  description: 'How a tool may use the resource bound to a slot.',
  valuesConfig: {
    READ_ONLY: { description: 'The tool only reads the resource (the default).' },
    READ_WRITE: { description: 'The tool reads and writes the resource.' },
    WRITE_ONLY: { description: 'The tool only writes the resource.' },
  },
});

registerEnumType(BindingMode, {
  name: 'BindingMode',
  description: 'How a slot finds its resource.',
  valuesConfig: {
    CONTEXTUAL: { description: "Found among the project's linked resources by type (the default)." },
    STATIC: { description: 'A fixed registered resource, checked at registration.' },
    PARAMETER: { description: 'Named at invocation; deferred until then.' },
  },
});
