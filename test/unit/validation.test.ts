import { expect } from 'chai';
import { MinLength } from 'class-validator';
import { GraphQLObjectType, GraphQLString, type GraphQLResolveInfo } from 'graphql';
import { BadInputError } from '../../src/core/errors';
import { EachSatisfies, Satisfies, validateArgument } from '../../src/graphql/validation';

const lowercase = (value: string) => (/^[a-z]+$/.test(value) ? null : 'must be lowercase letters');

class OnlyOwnRules {
  @Satisfies(lowercase)
  name!: string;

  @EachSatisfies(lowercase)
  tags!: string[] | null;
}

class WithAnotherRule {
  @Satisfies(lowercase)
  name!: string;

  @MinLength(3)
  label!: string;
}

class Inherited extends OnlyOwnRules {
  @Satisfies(lowercase)
  extra!: string;
}

/** The resolver data type-graphql hands validateArgument: a field whose argument `arg` has the named type. */
function dataFor(typeName: string) {
  const argumentType = new GraphQLObjectType({ name: typeName, fields: { x: { type: GraphQLString } } });
  const parentType = new GraphQLObjectType({
    name: 'Query',
    fields: { field: { type: GraphQLString, args: { arg: { type: argumentType as never } } } },
  });
  return { info: { parentType, fieldName: 'field' } as unknown as GraphQLResolveInfo } as never;
}

async function problemsOf(value: object, type: new () => object): Promise<string[]> {
  try {
    await validateArgument(value, type as never, dataFor(type.name));
    return [];
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    return error.problems.map((p) => `${p.field}: ${p.message}`);
  }
}

function make<T extends object>(type: new () => T, fields: Partial<T>): T {
  return Object.assign(new type(), fields);
}

/** Argument validation (src/graphql/validation.ts): a valid argument may skip class-validator, never a rule. */
describe('argument validation', () => {
  it('passes a valid argument whose class has only Satisfies rules, and reports each bad field by path', async () => {
    expect(await problemsOf(make(OnlyOwnRules, { name: 'abc', tags: ['x', 'y'] }), OnlyOwnRules)).to.deep.equal([]);
    expect(await problemsOf(make(OnlyOwnRules, { name: 'abc', tags: null }), OnlyOwnRules)).to.deep.equal([]);
    expect(await problemsOf(make(OnlyOwnRules, { name: 'A1', tags: ['x', 'Y'] }), OnlyOwnRules)).to.deep.equal([
      'arg.name: arg.name must be lowercase letters',
      'arg.tags: arg.tags[1] must be lowercase letters',
    ]);
  });

  it('still runs every other class-validator rule of a class that has one', async () => {
    expect(await problemsOf(make(WithAnotherRule, { name: 'abc', label: 'ab' }), WithAnotherRule)).to.deep.equal([
      'arg.label: arg.label must be longer than or equal to 3 characters',
    ]);
    expect(await problemsOf(make(WithAnotherRule, { name: 'abc', label: 'abc' }), WithAnotherRule)).to.deep.equal([]);
  });

  it('judges a subclass by its own rules and its parent’s', async () => {
    expect(await problemsOf(make(Inherited, { name: 'abc', tags: ['Q'], extra: 'ok' }), Inherited)).to.deep.equal([
      'arg.tags: arg.tags[0] must be lowercase letters',
    ]);
    expect(await problemsOf(make(Inherited, { name: 'abc', tags: [], extra: 'X' }), Inherited)).to.deep.equal([
      'arg.extra: arg.extra must be lowercase letters',
    ]);
    expect(await problemsOf(make(Inherited, { name: 'abc', tags: [], extra: 'ok' }), Inherited)).to.deep.equal([]);
  });

  it('validates each item of a list argument, naming it by index', async () => {
    const items = [make(OnlyOwnRules, { name: 'ok', tags: [] }), make(OnlyOwnRules, { name: 'No', tags: [] })];
    expect(await problemsOf(items, OnlyOwnRules)).to.deep.equal(['arg[1].name: arg[1].name must be lowercase letters']);
  });
});
