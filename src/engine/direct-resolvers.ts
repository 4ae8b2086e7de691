import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage, type AuthCheckerFn } from 'type-graphql';
import type { InputClass as DeclaredInputClass } from '../graphql/inputs/input-classes';
import { passesOwnRules } from '../graphql/validation';

/**
 * Field resolvers called directly, without type-graphql's per-call wrapper.
 *
 * type-graphql wraps every `@FieldResolver` method in a function that, on
 * every call, builds a resolver-data object, asks its container for the
 * resolver instance, runs the middleware chain, and maps the method's
 * parameter list from its metadata, which it first sorts (V8's sort
 * allocates a work array each time). On a 50-tool dashboard page that is
 * about 650 calls and a fifth of the bytes the page allocates, for methods
 * that take the parent value and the context and nothing else.
 *
 * So a field resolver whose method needs nothing of the wrapper is called
 * directly, with its arguments in the order of its parameters: one that
 * takes only the parent value (`@Root()`, whole and unconverted), the
 * context (`@Ctx()`, whole or one property) and `@Info()`, with no field
 * arguments (those are converted and validated by type-graphql), no
 * middleware and no `@Authorized` roles, declared on a resolver class with a
 * constructor of no arguments (type-graphql's default container makes one
 * instance per class; so does this). Anything else keeps type-graphql's
 * wrapper. The schema's types, descriptions and fields are type-graphql's:
 * only the `resolve` functions of the eligible fields are replaced.
 *
 * It reads type-graphql's metadata storage of resolvers (their methods'
 * parameters, roles and middleware: what no public API of type-graphql
 * gives) after `buildSchema` built it, and nothing of its input types (those
 * come from the schema and src/graphql/inputs/input-classes.ts); a field
 * resolver whose metadata it does not recognise is left alone,
 * and `callFieldResolversDirectly` returns what it replaced (the tests pin the list).
 */

/** What type-graphql records of a handler parameter (the shapes this module reads). */
interface ParamMetadata {
  readonly kind: string;
  readonly index: number;
  readonly propertyName?: string;
  readonly getType?: unknown;
  /** An `@Arg`'s name, and its own validation settings (none: the schema's). */
  readonly name?: string;
  readonly validateSettings?: unknown;
  readonly validateFn?: unknown;
}

/** What type-graphql records of a root query, once its schema is built. */
interface QueryMetadata {
  readonly target: new () => Record<string, unknown>;
  readonly methodName: string;
  readonly schemaName: string;
  readonly params?: readonly ParamMetadata[];
  readonly roles?: readonly string[];
  readonly middlewares?: readonly unknown[];
}

/** What type-graphql records of a field resolver, once its schema is built. */
interface FieldResolverMetadata {
  readonly kind: 'internal' | 'external';
  readonly target: new () => Record<string, unknown>;
  readonly methodName: string;
  readonly schemaName: string;
  readonly params?: readonly ParamMetadata[];
  readonly roles?: readonly unknown[];
  readonly middlewares?: readonly unknown[];
  readonly getObjectType?: () => unknown;
}

/** One field whose resolver is called directly, as `Type.field`. */
export type DirectField = `${string}.${string}`;

/**
 * Replaces the resolvers of the eligible fields (see the module comment) of
 * a schema type-graphql has just built from `resolverClasses`, and returns
 * the fields it replaced, sorted.
 */
export function callFieldResolversDirectly(schema: GraphQLSchema, resolverClasses: readonly unknown[]): DirectField[] {
  const storage = getMetadataStorage() as unknown as {
    fieldResolvers: readonly FieldResolverMetadata[];
    objectTypes: readonly { target: unknown; name: string }[];
  };
  const instances = new Map<unknown, Record<string, unknown>>();
  const replaced: DirectField[] = [];
  for (const metadata of storage.fieldResolvers) {
    if (!resolverClasses.includes(metadata.target)) continue;
    const argumentsOf = directArguments(metadata);
    if (!argumentsOf) continue;
    const typeClass = metadata.getObjectType?.();
    const typeName = storage.objectTypes.find((type) => type.target === typeClass)?.name;
    const type = typeName === undefined ? undefined : schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[metadata.schemaName] : undefined;
    if (!field || field.args.length > 0 || !field.resolve) continue;
    const found = methodOf(instances, metadata);
    if (!found) continue;
    field.resolve = directResolver(found.instance, found.method, argumentsOf);
    replaced.push(`${typeName}.${field.name}`);
  }
  return replaced.sort();
}

/** The resolver class's one instance (made here, as type-graphql's default container makes one) and its method. */
function methodOf(
  instances: Map<unknown, Record<string, unknown>>,
  metadata: { readonly target: new () => Record<string, unknown>; readonly methodName: string },
): { instance: Record<string, unknown>; method: (...args: unknown[]) => unknown } | null {
  let instance = instances.get(metadata.target);
  if (!instance) {
    instance = new metadata.target();
    instances.set(metadata.target, instance);
  }
  const method = instance[metadata.methodName];
  return typeof method === 'function' ? { instance, method: method as (...args: unknown[]) => unknown } : null;
}

/** Where each parameter of the method comes from, in parameter order; null when the wrapper is needed. */
type Source = 'root' | 'context' | 'info' | { readonly contextProperty: string };

function directArguments(metadata: FieldResolverMetadata): Source[] | null {
  if (metadata.kind !== 'external' || !metadata.params) return null;
  if ((metadata.roles?.length ?? 0) > 0 || (metadata.middlewares?.length ?? 0) > 0) return null;
  if (metadata.target.length > 0) return null;
  const params = [...metadata.params].sort((a, b) => a.index - b.index);
  const sources: Source[] = [];
  for (const [position, param] of params.entries()) {
    if (param.index !== position) return null;
    if (param.kind === 'root' && param.propertyName === undefined && param.getType === undefined) sources.push('root');
    else if (param.kind === 'context')
      sources.push(param.propertyName === undefined ? 'context' : { contextProperty: param.propertyName });
    else if (param.kind === 'info') sources.push('info');
    else return null;
  }
  return sources;
}

/** A resolver that calls the method with its parameters, in order; the common shapes without a loop. */
function directResolver(
  instance: Record<string, unknown>,
  method: (...args: unknown[]) => unknown,
  sources: readonly Source[],
): GraphQLFieldResolver<unknown, Record<string, unknown>> {
  const shape = sources.map((source) => (typeof source === 'string' ? source : 'property')).join(',');
  switch (shape) {
    case 'root':
      return (root) => method.call(instance, root);
    case 'root,context':
      return (root, _args, context) => method.call(instance, root, context);
    case 'root,context,info':
      return (root, _args, context, info) => method.call(instance, root, context, info);
    default:
      return (root, _args, context, info) =>
        method.apply(
          instance,
          sources.map((source) =>
            source === 'root'
              ? root
              : source === 'context'
                ? context
                : source === 'info'
                  ? info
                  : context[source.contextProperty],
          ),
        );
  }
}

/**
 * Root queries called directly when their arguments need nothing of
 * type-graphql beyond what is done here: the same for a root field as for the
 * field resolvers above. type-graphql's wrapper of a root query runs, on
 * every call, the authorization middleware (an async chain), then for each
 * argument its conversion into class instances and its validation (a promise
 * each, and a `Promise.all`): for `resolveBindings`, about a seventh of the
 * bytes a unique request allocates.
 *
 * Eligible: a query on one of `resolverClasses` (a constructor of no
 * arguments) whose parameters are named `@Arg`s without settings of their
 * own, `@Ctx()` and `@Info()`, with no middleware. (The schema has no global
 * middleware.) Each call checks the roles with `authChecker` as
 * type-graphql's middleware would (a refusal throws its error), and calls the
 * method when every argument is
 * - a plain value (a string, number, boolean, null or absent: what
 *   type-graphql converts to itself and `validateArgument` does not look at);
 * - or an input object, or a list of them, of a class whose fields are all
 *   scalars or enums (so nothing nested to convert) and whose validation
 *   rules are all Satisfies rules (./validation.ts): each is converted into
 *   its class as type-graphql does (a new instance, given the fields the
 *   value holds), and every one must pass those rules.
 * Anything else (a value that breaks a rule, a null in a list, a class with
 * other rules or nested inputs), and a checker that answers false rather
 * than throwing, goes through type-graphql's own resolver, which converts,
 * validates and refuses exactly as before. Returns the fields replaced, sorted.
 */
export function callRootQueriesDirectly<TContext extends object>(
  schema: GraphQLSchema,
  resolverClasses: readonly unknown[],
  inputClasses: Readonly<Record<string, DeclaredInputClass>>,
  authChecker: AuthCheckerFn<TContext>,
): DirectField[] {
  const storage = getMetadataStorage() as unknown as { queries: readonly QueryMetadata[] };
  const queryType = schema.getQueryType();
  if (!queryType) return [];
  const fields = queryType.getFields();
  const instances = new Map<unknown, Record<string, unknown>>();
  const replaced: DirectField[] = [];
  for (const metadata of storage.queries) {
    if (!resolverClasses.includes(metadata.target) || metadata.target.length > 0) continue;
    if ((metadata.middlewares?.length ?? 0) > 0 || !metadata.params) continue;
    const params = [...metadata.params].sort((a, b) => a.index - b.index);
    const eligible = params.every(
      (param, position) =>
        param.index === position &&
        ((param.kind === 'arg' &&
          typeof param.name === 'string' &&
          param.validateSettings === undefined &&
          param.validateFn === undefined) ||
          (param.kind === 'context' && param.propertyName === undefined) ||
          param.kind === 'info'),
    );
    const field = fields[metadata.schemaName];
    const wrapped = field?.resolve;
    if (!eligible || !field || !wrapped) continue;
    const found = methodOf(instances, metadata);
    if (!found) continue;
    field.resolve = directQuery(
      found.instance,
      found.method,
      params.map((param) => {
        if (param.kind !== 'arg') return param.kind as 'context' | 'info';
        const arg = field.args.find((a) => a.name === param.name);
        return { arg: param.name!, input: arg ? inputClassOf(arg, inputClasses) : null };
      }),
      metadata.roles ?? null,
      authChecker,
      wrapped,
    );
    replaced.push(`${queryType.name}.${field.name}`);
  }
  return replaced.sort();
}

/** An input class a direct call converts arguments into: its constructor and its fields (property = schema name). */
interface InputClass {
  readonly target: new () => Record<string, unknown>;
  readonly fields: readonly string[];
}

/**
 * The input class of an argument that is an input object or a list of them
 * (found by the input type's name in `inputClasses`, the schema's own list,
 * src/graphql/inputs/input-classes.ts), when the conversion is one level
 * (every field a scalar or an enum, a constructor of no arguments); else
 * null. Its fields are the schema's, in the schema's order (type-graphql's
 * order of the class's fields); the inputs name no field otherwise than its
 * property (the test of the list checks that too).
 */
function inputClassOf(
  arg: GraphQLArgument,
  inputClasses: Readonly<Record<string, DeclaredInputClass>>,
): InputClass | null {
  const nullable = getNullableType(arg.type);
  const item = isListType(nullable) ? getNullableType(nullable.ofType) : nullable;
  if (!isInputObjectType(item) || !Object.hasOwn(inputClasses, item.name)) return null;
  const target = inputClasses[item.name] as new () => Record<string, unknown>;
  if (target.length > 0) return null;
  const schemaFields = Object.values(item.getFields());
  const flat = schemaFields.every((f) => {
    const named = getNamedType(f.type);
    return (isScalarType(named) || isEnumType(named)) && !isListType(getNullableType(f.type));
  });
  return flat ? { target, fields: schemaFields.map((f) => f.name) } : null;
}

/** A plain value, which type-graphql passes to the method as it is and `validateArgument` does not look at. */
function isPlain(value: unknown): boolean {
  return value === null || value === undefined || typeof value !== 'object';
}

/** Marks a value type-graphql must convert and validate itself. */
const DECLINED = Symbol('declined');

/**
 * An input value (an object, or a list of objects) as type-graphql's
 * conversion makes it: each object a new instance of its class with the
 * fields it holds (undefined ones left out), in the class's field order;
 * DECLINED when any item is not an object or breaks one of the class's rules.
 */
function toInstances(value: object, input: InputClass): unknown {
  if (!Array.isArray(value)) return toInstance(value, input);
  const instances = new Array<unknown>(value.length);
  for (let i = 0; i < value.length; i++) {
    const instance = toInstance(value[i], input);
    if (instance === DECLINED) return DECLINED;
    instances[i] = instance;
  }
  return instances;
}

function toInstance(item: unknown, input: InputClass): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return DECLINED;
  const instance = new input.target();
  for (const name of input.fields) {
    const value = (item as Record<string, unknown>)[name];
    if (value !== undefined) instance[name] = value;
  }
  return passesOwnRules(instance) ? instance : DECLINED;
}

function directQuery<TContext extends object>(
  instance: Record<string, unknown>,
  method: (...args: unknown[]) => unknown,
  sources: readonly ('context' | 'info' | { readonly arg: string; readonly input: InputClass | null })[],
  roles: readonly string[] | null,
  authChecker: AuthCheckerFn<TContext>,
  wrapped: GraphQLFieldResolver<unknown, TContext>,
): GraphQLFieldResolver<unknown, TContext> {
  // Not async: a method that answers with a plain value (resolveBindings, when everything is in memory) hands it to
  // the executor as it is. A refusal (the checker throws) is then thrown, where type-graphql's middleware rejects: the
  // executors (graphql-js and graphql-jit) report both as the same field error.
  return (root, args: Record<string, unknown>, context, info) => {
    const values: unknown[] = new Array<unknown>(sources.length);
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i];
      if (source === 'context') values[i] = context;
      else if (source === 'info') values[i] = info;
      else {
        const value = args[source.arg];
        if (isPlain(value)) values[i] = value;
        else {
          const converted = source.input ? toInstances(value as object, source.input) : DECLINED;
          if (converted === DECLINED) return wrapped(root, args, context, info);
          values[i] = converted;
        }
      }
    }
    if (roles !== null && authChecker({ root, args, context, info }, [...roles]) !== true)
      return wrapped(root, args, context, info);
    return method.apply(instance, values);
  };
}
