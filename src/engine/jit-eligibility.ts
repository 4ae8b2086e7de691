/** What a document needs to run as compiled code (graphql-jit 0.8) rather than on graphql-js. */
import {
  BREAK,
  getNamedType,
  isInputObjectType,
  isInputType,
  isNonNullType,
  Kind,
  typeFromAST,
  visit,
  type DocumentNode,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
  type TypeNode,
} from 'graphql';

/**
 * True when a variable's type holds, at any depth, an input field that is
 * non-null and has a default. graphql-jit (0.8) refuses such a field left out
 * of a variable's value, where graphql-js takes the default: so the operation
 * runs on graphql-js (registerTool's slot inputs, e.g. in validateTool).
 */
export function omitsRequiredDefaults(schema: GraphQLSchema, typeNode: TypeNode): boolean {
  const type = typeFromAST(schema, typeNode);
  if (!type) return false;
  const seen = new Set<GraphQLInputObjectType>();
  const check = (input: GraphQLInputType): boolean => {
    const named = getNamedType(input);
    if (!isInputObjectType(named) || seen.has(named)) return false;
    seen.add(named);
    return Object.values(named.getFields()).some(
      (field) => (isNonNullType(field.type) && field.defaultValue !== undefined) || check(field.type),
    );
  };
  return isInputType(type) && check(type);
}

/** True when the document asks for `__schema` or `__type` anywhere (introspection runs on graphql-js). */
export function readsIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.FIELD](node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}
