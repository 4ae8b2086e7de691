import { getMetadataStorage, registerDecorator, validate, type ValidationError } from 'class-validator';
import { getNamedType, type GraphQLResolveInfo } from 'graphql';
import type { ResolverData, ValidatorFn } from 'type-graphql';
import { BadInputError, type FieldProblem } from '../core/errors';

/**
 * A class-validator rule that runs one of the core's grammar checks
 * (e.g. checkTypeName), so the rule has one source. Null and undefined pass
 * (nullability is GraphQL's job).
 */
export function Satisfies(check: (value: never) => string | null): PropertyDecorator {
  const passes = (value: unknown) => value == null || check(value as never) === null;
  return (target, propertyName) => {
    addRule(target.constructor, { property: propertyName, passes });
    registerDecorator({
      name: `satisfies:${check.name}`,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: passes,
        defaultMessage: (args) => `${args?.property} ${args ? check(args.value as never) : 'is invalid'}`,
      },
    });
  };
}

/** Like Satisfies, for every element of a list; the message names the first bad element by index. */
export function EachSatisfies(check: (value: never) => string | null): PropertyDecorator {
  const firstProblem = (value: unknown): [number, string] | null => {
    if (!Array.isArray(value)) return null;
    for (const [index, item] of value.entries()) {
      const problem = check(item as never);
      if (problem) return [index, problem];
    }
    return null;
  };
  const passes = (value: unknown) => value == null || firstProblem(value) === null;
  return (target, propertyName) => {
    addRule(target.constructor, { property: propertyName, passes });
    registerDecorator({
      name: `eachSatisfies:${check.name}`,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: passes,
        defaultMessage: (args) => {
          const found = firstProblem(args?.value);
          return found ? `${args?.property}[${found[0]}] ${found[1]}` : `${args?.property} is invalid`;
        },
      },
    });
  };
}

/**
 * type-graphql's validateFn: runs class-validator on object arguments and
 * reports every problem as BAD_USER_INPUT with the full path of the field,
 * e.g. `input.resourceSlots[2].name` or `params[0].slot`.
 */
export async function validateArgument(
  value: unknown,
  type: Parameters<ValidatorFn>[1],
  data: ResolverData<object>,
): Promise<void> {
  if (value == null || typeof value !== 'object') return;
  const prefix = argumentName(type, data.info);
  const items = Array.isArray(value) ? value : [value];
  const problems: FieldProblem[] = [];
  for (const [index, item] of (items as unknown[]).entries()) {
    if (item == null || typeof item !== 'object' || passesOwnRules(item)) continue;
    const errors = await validate(item, {
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
    });
    collect(errors, Array.isArray(value) ? `${prefix}[${index}]` : prefix, problems);
  }
  if (problems.length > 0) throw new BadInputError(problems);
}

/** One rule of Satisfies or EachSatisfies: the very test class-validator runs for it. */
interface Rule {
  readonly property: string | symbol;
  readonly passes: (value: unknown) => boolean;
}

/** The rules Satisfies and EachSatisfies put on each class. */
const rulesOf = new Map<object, Rule[]>();

function addRule(target: object, rule: Rule): void {
  const rules = rulesOf.get(target) ?? [];
  rules.push(rule);
  rulesOf.set(target, rules);
}

/**
 * Per input class, when its rules and nested inputs are all class-validator has for it (then they alone decide):
 * its rules, and the properties it validates as nested inputs (`@ValidateNested`); else null.
 */
const onlyOwnRules = new WeakMap<object, OwnRules | null>();

interface OwnRules {
  readonly rules: readonly Rule[];
  readonly nested: readonly string[];
}

/**
 * Whether `item` passes every rule of its class, judged without
 * class-validator, when those rules are all the class has (its own and its
 * parents'), besides nested inputs that pass the same way. A valid argument
 * then skips class-validator's run, which costs a few percent of a small
 * query (its metadata lookup, its promises) and about 3.5 % of a
 * `registerTool` (whose slots are nested inputs); anything that fails, a
 * nested input that is not an object of such a class, or a class with any
 * other rule, is validated by class-validator for its exact messages.
 */
export function passesOwnRules(item: object): boolean {
  const own = ownRulesOf(item.constructor);
  if (own === null) return false;
  const record = item as Record<string | symbol, unknown>;
  for (const rule of own.rules) if (!rule.passes(record[rule.property])) return false;
  for (const property of own.nested) {
    const value = record[property];
    // class-validator refuses a nested null and a list item that is not an object: left to it, for its message.
    const items: unknown[] = Array.isArray(value) ? value : [value];
    for (const nested of items) if (!isObject(nested) || !passesOwnRules(nested)) return false;
  }
  return true;
}

function ownRulesOf(type: object): OwnRules | null {
  let own = onlyOwnRules.get(type);
  if (own !== undefined) return own;
  const rules: Rule[] = [];
  for (let at: object | null = type; at && at !== Function.prototype; at = Object.getPrototypeOf(at) as object | null)
    rules.push(...(rulesOf.get(at) ?? []));
  const all = getMetadataStorage().getTargetValidationMetadatas(type as new () => object, '', false, false);
  const custom = all.filter((m) => m.type === 'customValidation');
  const nested = all.filter((m) => m.type === 'nestedValidation' && !m.each && !m.always && !m.groups?.length);
  own =
    rules.length > 0 && custom.length === rules.length && custom.length + nested.length === all.length
      ? { rules, nested: nested.map((m) => m.propertyName) }
      : null;
  onlyOwnRules.set(type, own);
  return own;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** The name of the field argument whose type is `type`; empty for an @ArgsType class, whose fields are the arguments themselves. */
function argumentName(type: Parameters<ValidatorFn>[1], info: GraphQLResolveInfo): string {
  const typeName = typeof type === 'function' ? type.name : '';
  const field = info.parentType.getFields()[info.fieldName];
  return field?.args.find((arg) => getNamedType(arg.type).name === typeName)?.name ?? '';
}

function collect(errors: readonly ValidationError[], prefix: string, into: FieldProblem[]): void {
  for (const error of errors) {
    const path = /^\d+$/.test(error.property)
      ? `${prefix}[${error.property}]`
      : prefix
        ? `${prefix}.${error.property}`
        : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      into.push({ field: path, message: message.replace(new RegExp(`^${error.property}\\b`), path) });
    }
    if (error.children?.length) collect(error.children, path, into);
  }
}
