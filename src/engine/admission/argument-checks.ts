/** Page sizes and list lengths checked before execution, from literals and variables, as the resolvers would. */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { BadInputError, type FieldProblem } from '../../core/errors';
import { checkListSize, checkPageSize, LIMITS } from '../../core/grammar';

/** Page-size arguments, each with the one it cannot be given with (a page is taken from one end of the window). */
const PAGE_SIZE_PAIRS = [
  ['first', 'last'],
  ['projectsFirst', 'projectsLast'],
  ['toolsFirst', 'toolsLast'],
] as const;

/** List arguments with a maximum length, by `field.argument` (whatever type the field is on). */
const LIST_ARGUMENTS: ReadonlyMap<string, (length: number) => FieldProblem | null> = new Map([
  [
    'nodes.ids',
    (n: number) =>
      n > LIMITS.pageSize ? { field: 'ids', message: `at most ${LIMITS.pageSize} ids per request` } : null,
  ],
  ['explainBindings.params', (n: number) => listProblem('params', n, LIMITS.params)],
  ['resolveBindings.params', (n: number) => listProblem('params', n, LIMITS.params)],
]);

function listProblem(field: string, length: number, max: number): FieldProblem | null {
  const problem = checkListSize(length, max);
  return problem ? { field, message: `${field} ${problem}` } : null;
}

/** What is wrong with one field's bounded arguments (page sizes, list lengths), as the resolvers would say it. */
function fieldArgumentProblems(args: Record<string, unknown>, field: GraphQLField<unknown, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const pair of PAGE_SIZE_PAIRS) {
    for (const name of pair) {
      const size = args[name];
      const problem = typeof size === 'number' ? checkPageSize(size) : null;
      if (problem) problems.push({ field: name, message: `${name} ${problem}` });
    }
  }
  for (const [name, value] of Object.entries(args)) {
    const check = Array.isArray(value) ? LIST_ARGUMENTS.get(`${field.name}.${name}`) : undefined;
    const problem = check?.((value as unknown[]).length);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) return problems;
  for (const [first, last] of PAGE_SIZE_PAIRS) {
    if (args[first] != null && args[last] != null) {
      return [{ field: last, message: `pass ${first} or ${last}, not both: a page is taken from one end` }];
    }
  }
  return [];
}

/**
 * The problems of the first field, in the operation to run, whose page sizes
 * or list lengths are out of bounds, from literals and variables (defaults
 * included); fields that @skip/@include leave out are not looked at. Empty
 * when all hold, or when the variables do not coerce (execution refuses
 * those, with BAD_USER_INPUT).
 */
export function argumentProblems(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): FieldProblem[] {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 1 });
  if (coerced.errors) return [];
  const values = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // A fragment's arguments do not depend on where it is spread: each is looked at once.
  const seen = new Set<string>();
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, values)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, values)?.if !== false;
  const fieldProblems = (node: FieldNode, field: GraphQLField<unknown, unknown>): FieldProblem[] => {
    try {
      return fieldArgumentProblems(getArgumentValues(field, node, values), field);
    } catch {
      return []; // an argument that does not coerce: validation or execution says so
    }
  };
  const walk = (set: SelectionSetNode, parent: GraphQLNamedType | null | undefined): FieldProblem[] => {
    for (const selection of set.selections) {
      if (!included(selection)) continue;
      let problems: FieldProblem[] = [];
      if (selection.kind === Kind.FIELD) {
        // Introspection's fields (and __typename) are not the parent's: none has a bounded argument.
        const field =
          isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        if (!field) continue;
        if (selection.arguments?.length) problems = fieldProblems(selection, field);
        if (problems.length === 0 && selection.selectionSet) {
          problems = walk(selection.selectionSet, getNamedType(field.type));
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        problems = walk(selection.selectionSet, type);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment || seen.has(fragment.name.value)) continue;
        seen.add(fragment.name.value);
        problems = walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value));
      }
      if (problems.length > 0) return problems;
    }
    return [];
  };
  return walk(operation.selectionSet, root);
}

/** The error for out-of-bounds arguments: BAD_USER_INPUT, 400, with the message and problems a resolver would give. */
export function argumentError(problems: readonly FieldProblem[]): GraphQLError | null {
  if (problems.length === 0) return null;
  const { message, code } = new BadInputError(problems);
  return new GraphQLError(message, { extensions: { code, problems, http: { status: 400 } } });
}
