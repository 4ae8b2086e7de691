// The request limits on their own, against schema.graphql: introspection's estimated cost, and the verdict memo's byte budget.
import { expect } from 'chai';
import { buildSchema, getIntrospectionQuery, isInterfaceType, isObjectType, parse } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateCost, QUERY_LIMITS } from '../../src/graphql/query-limits';

const schema = buildSchema(readFileSync(join(__dirname, '..', '..', 'schema.graphql'), 'utf8'));

describe('query limits: introspection in the cost', () => {
  const fieldCount = Object.values(schema.getTypeMap())
    .filter((type) => isObjectType(type) || isInterfaceType(type))
    .reduce((n, type) => n + Object.keys(type.getFields()).length, 0);

  it("counts GraphiQL's full introspection by the schema's size, and allows one", () => {
    for (const options of [{}, { descriptions: true, inputValueDeprecation: true, specifiedByUrl: true }]) {
      const cost = estimateCost(schema, parse(getIntrospectionQuery(options)), undefined, {});
      // Every field of every type is listed, with its name, description, args and type reference.
      expect(cost)
        .to.be.a('number')
        .and.at.least(5 * fieldCount);
      expect(cost).to.be.at.most(QUERY_LIMITS.cost);
    }
  });

  it('would refuse 15 of them in one request by the cost alone', () => {
    const one = estimateCost(schema, parse(getIntrospectionQuery()), undefined, {})!;
    expect(15 * one).to.be.greaterThan(QUERY_LIMITS.cost);
  });

  it("counts a type's fields as a list", () => {
    const fields = estimateCost(schema, parse('{ __type(name: "Query") { fields { name } } }'), undefined, {})!;
    expect(fields).to.be.greaterThan(3);
  });
});
