import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Kind, parse, type DocumentNode } from 'graphql';
import ts from 'typescript';

/**
 * Every GraphQL operation the integration suite and the shipped clients write down, collected from the source
 * files themselves, so that the list is the same on every run and needs no earlier run of the suite:
 *
 * - each string and template literal in test/integration, test/support, examples, scripts/bench (the benchmark's
 *   workloads: the fast engine's own ground) and web/ (the dashboard's operations, GraphiQL's default document)
 *   that parses as a GraphQL document with at least one operation; a template's `${X}` is filled in when X is a
 *   constant of that file, or one it imports from a relative path (fragments such as IMPACT_FRAGMENT, selections
 *   such as IMPACT), else the literal is left out and counted (its text is built at run time, e.g. in a loop);
 * - each operation of the .graphql files under examples/.
 *
 * What this leaves out: documents built at run time (counted as `unresolved`), and the variables each test
 * sends, which refer to that test's own data (the caller fills variables from the data it serves instead).
 */
export interface CollectedOperation {
  /** Where it was found: `path:line`. */
  readonly source: string;
  readonly document: string;
  readonly operationName: string | null;
  readonly parsed: DocumentNode;
}

export interface OperationCorpus {
  readonly operations: readonly CollectedOperation[];
  /** Literals that look like GraphQL (a `{` and a keyword or selection) but hold a substitution not resolved. */
  readonly unresolved: readonly string[];
}

const ROOT = resolve(__dirname, '../..');
const TS_FOLDERS = [
  'test/integration',
  'test/support',
  'examples',
  'web/dashboard/operations',
  'web/graphiql',
  'scripts/bench',
];
const GRAPHQL_FOLDERS = ['examples'];

/** The corpus, in a stable order (by file, then position; each document and operation once). */
export function collectOperations(): OperationCorpus {
  const found: CollectedOperation[] = [];
  const unresolved: string[] = [];
  const scanner = new LiteralScanner();
  for (const file of filesUnder(TS_FOLDERS, ['.ts', '.tsx'])) {
    for (const literal of scanner.literals(file)) {
      if (literal.text === null) {
        if (looksLikeGraphQL(literal.raw)) unresolved.push(literal.source);
        continue;
      }
      found.push(...operationsOf(literal.text, literal.source));
    }
  }
  for (const file of filesUnder(GRAPHQL_FOLDERS, ['.graphql'])) {
    found.push(...operationsOf(readFileSync(file, 'utf8'), relative(ROOT, file)));
  }
  const seen = new Set<string>();
  const operations = found.filter((operation) => {
    const key = `${operation.operationName ?? ''}\u0000${operation.document}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { operations, unresolved };
}

function operationsOf(text: string, source: string): CollectedOperation[] {
  if (!text.includes('{')) return [];
  let parsed: DocumentNode;
  try {
    parsed = parse(text, { noLocation: true });
  } catch {
    return [];
  }
  const definitions = parsed.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  // A document of several operations is sent once per operation, by name; one of a single operation, without.
  return definitions.map((definition) => ({
    source,
    document: text,
    operationName: definitions.length > 1 ? (definition.name?.value ?? null) : null,
    parsed,
  }));
}

function looksLikeGraphQL(text: string): boolean {
  return /^\s*(query|mutation|subscription|fragment)\b[^{]*\{|^\s*\{\s*[_a-zA-Z]/.test(text);
}

function filesUnder(folders: readonly string[], extensions: readonly string[]): string[] {
  return folders
    .flatMap((folder) =>
      readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).map((path) => join(ROOT, folder, path)),
    )
    .filter(
      (path) =>
        extensions.some((extension) => path.endsWith(extension)) &&
        !path.includes('generated') &&
        // The benchmark's peer has packages of its own (scripts/bench/peers/postgraphile, once installed).
        !path.split(/[\\/]/).includes('node_modules'),
    )
    .sort();
}

interface Literal {
  readonly source: string;
  /** Its text, substitutions filled in; null when one could not be. */
  readonly text: string | null;
  /** Its text with substitutions left as they are written. */
  readonly raw: string;
}

/** The literals of TypeScript files, and the constants their templates refer to. */
class LiteralScanner {
  private readonly files = new Map<string, ts.SourceFile>();
  private readonly constants = new Map<string, Map<string, ts.Expression>>();

  literals(file: string): Literal[] {
    const sourceFile = this.sourceFile(file);
    const literals: Literal[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
        const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
        literals.push({
          source: `${relative(ROOT, file)}:${line + 1}`,
          text: this.evaluate(node, file, 0),
          raw: node.getText(sourceFile).slice(1, -1),
        });
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return literals;
  }

  /** The string an expression stands for, when it is a literal or a constant of known text; else null. */
  private evaluate(node: ts.Expression, file: string, depth: number): string | null {
    if (depth > 8) return null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
      return this.evaluate(node.expression, file, depth);
    if (ts.isTemplateExpression(node)) {
      let text = node.head.text;
      for (const span of node.templateSpans) {
        const value = this.evaluate(span.expression, file, depth + 1);
        if (value === null) return null;
        text += value + span.literal.text;
      }
      return text;
    }
    if (ts.isIdentifier(node)) {
      const target = this.resolveName(node.text, file);
      return target ? this.evaluate(target.expression, target.file, depth + 1) : null;
    }
    return null;
  }

  /** A top-level `const name = …` of the file, or of the relative module it imports the name from. */
  private resolveName(name: string, file: string): { expression: ts.Expression; file: string } | null {
    const expression = this.constantsOf(file).get(name);
    if (expression) return { expression, file };
    for (const statement of this.sourceFile(file).statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (!specifier.startsWith('.') || !bindings || !ts.isNamedImports(bindings)) continue;
      const element = bindings.elements.find((e) => e.name.text === name);
      if (!element) continue;
      const target = moduleFile(resolve(dirname(file), specifier));
      return target ? this.resolveName(element.propertyName?.text ?? name, target) : null;
    }
    return null;
  }

  private constantsOf(file: string): Map<string, ts.Expression> {
    let constants = this.constants.get(file);
    if (constants) return constants;
    constants = new Map();
    for (const statement of this.sourceFile(file).statements) {
      if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer)
          constants.set(declaration.name.text, declaration.initializer);
      }
    }
    this.constants.set(file, constants);
    return constants;
  }

  private sourceFile(file: string): ts.SourceFile {
    let sourceFile = this.files.get(file);
    if (!sourceFile) {
      sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
      this.files.set(file, sourceFile);
    }
    return sourceFile;
  }
}

function moduleFile(base: string): string | null {
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}
