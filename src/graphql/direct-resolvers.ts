import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

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
 * It reads type-graphql's public metadata storage after `buildSchema` built
 * it; a field resolver whose metadata it does not recognise is left alone,
 * and `callFieldResolversDirectly` returns what it replaced (the tests pin the list).
 */

/** What type-graphql records of a handler parameter (the shapes this module reads). */
interface ParamMetadata {
  readonly kind: string;
  readonly index: number;
  readonly propertyName?: string;
  readonly getType?: unknown;
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
    let instance = instances.get(metadata.target);
    if (!instance) {
      instance = new metadata.target();
      instances.set(metadata.target, instance);
    }
    const method = instance[metadata.methodName];
    if (typeof method !== 'function') continue;
    field.resolve = directResolver(instance, method as (...args: unknown[]) => unknown, argumentsOf);
    replaced.push(`${typeName}.${field.name}`);
  }
  return replaced.sort();
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
