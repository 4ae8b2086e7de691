import { expect } from 'chai';
import { MinLength, ValidateNested } from 'class-validator';
import { GraphQLObjectType, GraphQLString, type GraphQLResolveInfo } from 'graphql';
import { BadInputError } from '../../src/core/errors';
import { EachSatisfies, passesOwnRules, Satisfies, validateArgument } from '../../src/graphql/validation';

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

class WithNested {
  @Satisfies(lowercase)
  name!: string;

  @ValidateNested()
  items!: object[];
}

class WithNestedOther {
  @Satisfies(lowercase)
  name!: string;

  @ValidateNested()
  items!: WithAnotherRule[];
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

  it('judges nested inputs the same way, and leaves to class-validator any it cannot', async () => {
    const valid = make(WithNested, { name: 'abc', items: [make(OnlyOwnRules, { name: 'x', tags: [] })] });
    expect(passesOwnRules(valid)).to.equal(true);
    expect(await problemsOf(valid, WithNested)).to.deep.equal([]);
    // A bad nested item: class-validator runs, for its path and message.
    const bad = make(WithNested, {
      name: 'abc',
      items: [make(OnlyOwnRules, { name: 'x', tags: [] }), make(OnlyOwnRules, { name: 'Y', tags: [] })],
    });
    expect(passesOwnRules(bad)).to.equal(false);
    expect(await problemsOf(bad, WithNested)).to.deep.equal([
      'arg.items[1].name: arg.items[1].name must be lowercase letters',
    ]);
    // A bad rule of the outer input fails as before.
    expect(passesOwnRules(make(WithNested, { name: 'A', items: [] }))).to.equal(false);
    // An item that is not an input object of such a class, or a nested class with another rule: class-validator decides.
    expect(passesOwnRules(make(WithNested, { name: 'abc', items: [{ name: 'x' }] }))).to.equal(false);
    expect(passesOwnRules(make(WithNested, { name: 'abc', items: ['x' as never] }))).to.equal(false);
    const other = make(WithNestedOther, { name: 'abc', items: [make(WithAnotherRule, { name: 'abc', label: 'ab' })] });
    expect(passesOwnRules(other)).to.equal(false);
    expect(await problemsOf(other, WithNestedOther)).to.deep.equal([
      'arg.items[0].label: arg.items[0].label must be longer than or equal to 3 characters',
    ]);
  });
});
