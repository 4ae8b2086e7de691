/** The limits checked as validation rules: depth, aliases, directives (graphql-armor) and `__schema` selections. */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  Kind,
  type FieldNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { QUERY_LIMITS } from './limits';

/** Reports a rejected limit as a validation error (400) that names the limit. */
function reject(limit: string) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { limit } }));
  };
}

/**
 * At most `QUERY_LIMITS.schemaIntrospections` `__schema` selections in an
 * operation, counted through fragments (inline and named; a named fragment
 * spread twice counts once, since its selections merge): a client needs the
 * schema once, and each copy is answered in full.
 */
export const schemaIntrospectionRule: ValidationRule = (context) => {
  const count = (set: SelectionSetNode, found: Set<FieldNode>, fragments: Set<string>): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema') found.add(selection);
        else if (selection.selectionSet) count(selection.selectionSet, found, fragments);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count(selection.selectionSet, found, fragments);
      } else if (!fragments.has(selection.name.value)) {
        fragments.add(selection.name.value);
        const fragment = context.getFragment(selection.name.value);
        if (fragment) count(fragment.selectionSet, found, fragments);
      }
    }
  };
  return {
    OperationDefinition(operation) {
      const found = new Set<FieldNode>();
      count(operation.selectionSet, found, new Set());
      if (found.size > QUERY_LIMITS.schemaIntrospections) {
        context.reportError(
          new GraphQLError(
            `__schema may be selected at most once a request, found ${found.size}; ask for the schema once`,
            { nodes: [...found], extensions: { limit: 'INTROSPECTION' } },
          ),
        );
      }
    },
  };
};

/** Validation rules for depth, aliases, directives (graphql-armor) and `__schema` selections, reported as GRAPHQL_VALIDATION_FAILED. */
export const limitRules: ValidationRule[] = [
  maxDepthRule({
    n: QUERY_LIMITS.depth,
    // Count fields only: a selection written with fragments (as Relay clients write everything) is as deep as inline.
    flattenFragments: true,
    propagateOnRejection: false,
    onReject: [reject('DEPTH')],
  }),
  maxAliasesRule({
    n: QUERY_LIMITS.aliases,
    propagateOnRejection: false,
    onReject: [reject('ALIASES')],
  }),
  maxDirectivesRule({
    n: QUERY_LIMITS.directives,
    propagateOnRejection: false,
    onReject: [reject('DIRECTIVES')],
  }),
  schemaIntrospectionRule,
];
