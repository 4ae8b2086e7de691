/**
 * Builds the synthetic registry the benchmark runs on, from a seed: resource
 * types in a hierarchy up to 10 levels deep, resources, projects with linked
 * (some aliased) resources, and tools whose slots mix the three binding
 * modes. The schema comes from the project's own migrations; the rows go in
 * with better-sqlite3 prepared statements in one transaction. The result is
 * cached per (size, seed) under bench-results/cache/, so a repeated run skips
 * this step.
 */
import 'reflect-metadata';
import BetterSqlite3 from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ulid } from 'ulid';
import { checkResourceName, checkSlotName, checkTypeName, shortNameOf } from '../../src/core/grammar';
import { nameKey } from '../../src/core/names';
import { ACCESS_MODES, type Access, type BindingMode, type TypeNode } from '../../src/core/model';
import { TypeHierarchy } from '../../src/core/type-hierarchy';
import { Database } from '../../src/persistence/database';
import { MIGRATIONS } from '../../src/persistence/migrations';
import {
  insertEveryColumn,
  PROJECT,
  PROJECT_RESOURCE,
  REGISTRY_CHANGE,
  REGISTRY_STATE,
  RESOURCE,
  RESOURCE_SLOT,
  RESOURCE_TYPE,
  RESOURCE_TYPE_PARENT,
  TOOL,
} from '../../src/persistence/tables';
import { Random } from './random';

/** Bump when the generator changes what it builds, so old cached databases are not reused. */
export const GENERATOR_VERSION = 2;

/** How many of each thing a registry of a given size holds. */
export interface RegistryShape {
  readonly resources: number;
  readonly types: number;
  /** Levels of the type hierarchy (level 0 are roots; a level-k type has an ancestor chain k deep). */
  readonly levels: number;
  readonly projects: number;
  readonly linksPerProject: number;
  readonly tools: number;
  readonly maxSlotsPerTool: number;
}

/**
 * The counts for `resources` resources. The default, 50,000, gives 500 types
 * in 10 levels, 2,000 projects of 25 links and 5,000 tools. Projects and tools
 * scale linearly with the resources; types with the square root (a registry
 * ten times larger has about three times as many kinds of thing); each project
 * always links 25 resources, so one resolution looks at the same amount of
 * data at every size.
 */
export function registryShape(resources: number): RegistryShape {
  const scale = resources / 50_000;
  const types = Math.min(2_000, Math.max(12, Math.round(500 * Math.sqrt(scale))));
  return {
    resources,
    types,
    levels: Math.min(10, types),
    projects: Math.max(4, Math.round(2_000 * scale)),
    linksPerProject: Math.min(25, resources),
    tools: Math.max(10, Math.round(5_000 * scale)),
    maxSlotsPerTool: 6,
  };
}

/** Words for slot names, link aliases and resource short names, so that the alias and short-name rules get used. */
export const SLOT_WORDS = [
  'repo',
  'config',
  'output',
  'input',
  'cache',
  'data',
  'logs',
  'src',
  'build',
  'docs',
  'assets',
  'workspace',
  'secrets',
  'models',
  'reports',
  'artifacts',
  'scratch',
  'backup',
  'templates',
  'fixtures',
] as const;

const TYPE_WORDS = [
  'git-checkout',
  'fs-directory',
  'bucket',
  'volume',
  'dataset',
  'model',
  'queue',
  'topic',
  'database',
  'secret',
  'cluster',
  'image',
];

/** Probabilities that shape the data; see docs/benchmark.md. */
const MIX = {
  /** Chance that a non-root type has one extra parent from any lower level (and then, again, a second). */
  extraParent: 0.25,
  /** Chance that a sub-type keeps its first parent's role word. */
  inheritWord: 0.6,
  /** Chance that a resource's short name is its type's bare role word (e.g. team-3/repo). */
  bareShortName: 0.2,
  /** Chance that a link is aliased (mostly by its type's role word). */
  alias: 0.3,
  binding: { CONTEXTUAL: 0.5, STATIC: 0.2, PARAMETER: 0.3 } as Record<BindingMode, number>,
  /** Chance that a CONTEXTUAL / PARAMETER slot is required (STATIC slots always are). */
  requiredContextual: 0.7,
  requiredParameter: 0.8,
} as const;

/** Plain rows, as they go into the tables. */
interface Rows {
  types: TypeNode[];
  resources: { id: string; name: string; shortName: string; typeId: string }[];
  projects: { id: string; name: string; links: { resourceId: string; alias: string | null }[] }[];
  tools: { id: string; name: string; slots: SlotRow[] }[];
}

interface SlotRow {
  name: string;
  typeId: string;
  access: Access;
  binding: BindingMode;
  staticResourceId: string | null;
  required: boolean;
}

/** Counts of what was written. */
export interface GeneratedCounts {
  readonly types: number;
  readonly typeParents: number;
  readonly resources: number;
  readonly projects: number;
  readonly links: number;
  readonly aliasedLinks: number;
  readonly tools: number;
  readonly slots: number;
  readonly slotsByBinding: Record<BindingMode, number>;
}

/** A registry database file, ready to copy and serve. */
export interface CachedRegistry {
  readonly path: string;
  readonly size: number;
  readonly seed: string;
  /** Milliseconds spent generating it in this run, or null when the cached file was reused. */
  readonly generatedMs: number | null;
  readonly bytes: number;
}

/** Where the database for (size, seed) is cached. */
export function cachePath(cacheDir: string, size: number, seed: string): string {
  // The schema is part of the key: a database migrated by an older set of migrations is not reused.
  return join(cacheDir, `registry-v${GENERATOR_VERSION}-m${MIGRATIONS.length}-${size}-seed-${seed}.sqlite`);
}

/** The database for (size, seed): the cached file, or a new one built now (also when `regenerate`). */
export async function cachedRegistry(
  cacheDir: string,
  size: number,
  seed: string,
  regenerate = false,
): Promise<CachedRegistry> {
  const path = cachePath(cacheDir, size, seed);
  let generatedMs: number | null = null;
  if (regenerate || !existsSync(path)) {
    const started = performance.now();
    await generateRegistry(path, size, seed);
    generatedMs = performance.now() - started;
  }
  return { path, size, seed, generatedMs, bytes: statSync(path).size };
}

/**
 * Writes a new registry database at `path` (replacing any file there). It is
 * built under a temporary name and renamed at the end, so an interrupted run
 * never leaves a half-built file that a later run would take for a cached one.
 */
export async function generateRegistry(path: string, size: number, seed: string): Promise<GeneratedCounts> {
  mkdirSync(dirname(path), { recursive: true });
  const building = `${path}.building-${process.pid}`;
  removeDatabaseFiles(building);
  try {
    // The schema is the project's own: its migrations, run through its Database class.
    const db = await Database.open({ kind: 'sqlite', path: building });
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    const rows = buildRows(registryShape(size), new Random(seed));
    const counts = insertRows(building, rows);
    removeDatabaseFiles(path);
    renameSync(building, path);
    return counts;
  } finally {
    removeDatabaseFiles(building);
  }
}

/** Removes a SQLite file and its -wal and -shm companions. */
export function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

/** Deterministic ULIDs: a fixed clock that ticks once per id (so ids sort in creation order), and the seeded generator for the random part. */
function idFactory(random: Random): () => string {
  let clock = Date.UTC(2025, 0, 1);
  const prng = () => random.next();
  return () => ulid(clock++, prng);
}

/** Builds every row in memory from the seed. */
function buildRows(shape: RegistryShape, random: Random): Rows {
  const newId = idFactory(random.derive('ids'));

  // Types: level by level; every non-root type has a parent one level up, so level k is k deep.
  // Each type has a role word (what slots needing it, and links to it, tend to be called); sub-types often keep their parent's.
  const typeRandom = random.derive('types');
  const types: TypeNode[] = [];
  const wordOf = new Map<string, string>();
  const byLevel: TypeNode[][] = Array.from({ length: shape.levels }, () => []);
  const below: TypeNode[] = [];
  for (let i = 0; i < shape.types; i++) {
    const level = Math.floor((i * shape.levels) / shape.types);
    if (level > 0 && byLevel[level].length === 0) below.push(...byLevel[level - 1]);
    const parents: string[] = [];
    if (level > 0) {
      parents.push(typeRandom.pick(byLevel[level - 1]).id);
      for (let extra = 0; extra < 2 && typeRandom.chance(MIX.extraParent); extra++) {
        const candidate = typeRandom.pick(below).id;
        if (!parents.includes(candidate)) parents.push(candidate);
      }
    }
    const type: TypeNode = {
      id: newId(),
      name: `${TYPE_WORDS[i % TYPE_WORDS.length]}-l${level}-${i}`,
      description: null,
      parentIds: parents,
    };
    types.push(type);
    byLevel[level].push(type);
    const inherited = parents.length > 0 && typeRandom.chance(MIX.inheritWord) ? wordOf.get(parents[0]) : undefined;
    wordOf.set(type.id, inherited ?? typeRandom.pick(SLOT_WORDS));
  }
  const hierarchy = new TypeHierarchy(types);

  // Resources: a random type each; some short names are bare slot words.
  const resourceRandom = random.derive('resources');
  const namespaces = Math.max(10, Math.round(shape.resources / 50));
  const resourceNames = new Set<string>();
  const resources: Rows['resources'] = [];
  for (let i = 0; i < shape.resources; i++) {
    const type = resourceRandom.pick(types);
    const word = wordOf.get(type.id) ?? 'data';
    const namespace = `team-${resourceRandom.int(0, namespaces - 1)}`;
    let name = resourceRandom.chance(MIX.bareShortName) ? `${namespace}/${word}` : `${namespace}/${word}-${i}`;
    if (resourceNames.has(name)) name = `${namespace}/${word}-${i}`;
    resourceNames.add(name);
    resources.push({ id: newId(), name, shortName: shortNameOf(name), typeId: type.id });
  }

  // Projects: 25 distinct resources each, some under an alias unique within the project.
  const projectRandom = random.derive('projects');
  const projects: Rows['projects'] = [];
  for (let i = 0; i < shape.projects; i++) {
    const aliases = new Set<string>();
    const links = projectRandom.sampleIndexes(resources.length, shape.linksPerProject).map((index, n) => {
      let alias: string | null = null;
      if (projectRandom.chance(MIX.alias)) {
        const roleWord = wordOf.get(resources[index].typeId) ?? 'data';
        const wanted = projectRandom.chance(0.7) ? roleWord : `alias_${n}`;
        if (!aliases.has(wanted)) {
          aliases.add(wanted);
          alias = wanted;
        }
      }
      return { resourceId: resources[index].id, alias };
    });
    projects.push({ id: newId(), name: `org-${i % 40}/project-${i}`, links });
  }

  // Tools: 1–6 slots with distinct names. A slot's type is a random resource's type or one of its ancestors
  // (so popular families are needed more often), and the slot is named after the type's role word when that is free.
  // A STATIC slot binds that very resource, so it always fits.
  const toolRandom = random.derive('tools');
  const tools: Rows['tools'] = [];
  for (let i = 0; i < shape.tools; i++) {
    const count = toolRandom.int(1, shape.maxSlotsPerTool);
    const used = new Set<string>();
    const slots: SlotRow[] = [];
    for (let k = 0; k < count; k++) {
      const binding = toolRandom.weighted(MIX.binding);
      const access = toolRandom.pick(ACCESS_MODES);
      const resource = toolRandom.pick(resources);
      const typeId = toolRandom.pick([resource.typeId, ...hierarchy.ancestorsOf(resource.typeId).map((t) => t.id)]);
      const roleWord = wordOf.get(typeId) ?? 'data';
      const name = used.has(roleWord) ? toolRandom.pick(SLOT_WORDS.filter((w) => !used.has(w))) : roleWord;
      used.add(name);
      if (binding === 'STATIC') {
        slots.push({ name, typeId, access, binding, staticResourceId: resource.id, required: true });
      } else {
        const required = toolRandom.chance(binding === 'CONTEXTUAL' ? MIX.requiredContextual : MIX.requiredParameter);
        slots.push({ name, typeId, access, binding, staticResourceId: null, required });
      }
    }
    tools.push({ id: newId(), name: `vendor-${i % 200}/tool-${i}`, slots });
  }

  checkRows({ types, resources, projects, tools }, hierarchy);
  return { types, resources, projects, tools };
}

/** The generator's own guard: every name follows the project's grammar, and every static slot fits. */
function checkRows(rows: Rows, hierarchy: TypeHierarchy): void {
  const fail = (what: string, problem: string | null) => {
    if (problem) throw new Error(`generator produced an invalid ${what}: ${problem}`);
  };
  for (const type of rows.types) fail(`type name '${type.name}'`, checkTypeName(type.name));
  for (const resource of rows.resources) fail(`resource name '${resource.name}'`, checkResourceName(resource.name));
  const typeOf = new Map(rows.resources.map((r) => [r.id, r.typeId]));
  for (const project of rows.projects) {
    fail(`project name '${project.name}'`, checkResourceName(project.name));
    for (const link of project.links) if (link.alias !== null) fail(`alias '${link.alias}'`, checkSlotName(link.alias));
  }
  for (const tool of rows.tools) {
    fail(`tool name '${tool.name}'`, checkResourceName(tool.name));
    for (const slot of tool.slots) {
      fail(`slot name '${slot.name}'`, checkSlotName(slot.name));
      if (
        slot.staticResourceId !== null &&
        !hierarchy.isCompatible(typeOf.get(slot.staticResourceId) ?? '', slot.typeId)
      ) {
        throw new Error(
          `generator produced a static slot whose resource does not fit (tool ${tool.name}, slot ${slot.name})`,
        );
      }
    }
  }
}

/** One change-log row, by property name (see REGISTRY_CHANGE). */
type ChangeRow = Record<keyof typeof REGISTRY_CHANGE.columns, string | number | null>;

/**
 * The change log the registrations would have written, one entry per registration at versions 1, 2, …, as the
 * server writes them (the registrations' binding changes are left out: none of these loads reads them). Returns
 * the number of entries, which is the registry version.
 */
function writeChangeLog(rows: Rows, at: string, insert: (row: ChangeRow) => void): number {
  let version = 0;
  const typeName = new Map(rows.types.map((t) => [t.id, t.name]));
  const resourceName = new Map(rows.resources.map((r) => [r.id, r.name]));
  const entry = (
    kind: string,
    operation: string,
    entity: { id: string; name: string },
    summary: string,
    related: { id: string; name: string } | null = null,
  ): void => {
    version += 1;
    insert({
      id: ulid(),
      version,
      seq: 1,
      at,
      actor: 'anonymous',
      operation,
      kind,
      entityId: entity.id,
      entityName: entity.name,
      previousName: null,
      relatedId: related?.id ?? null,
      relatedName: related?.name ?? null,
      summary,
      impactCount: 0,
      impactComplete: 1,
      bindingChanges: null,
      namespace: null,
    });
  };
  for (const type of rows.types)
    entry('RESOURCE_TYPE', 'registerResourceType', type, `registered resource type ${type.name}`);
  for (const r of rows.resources)
    entry('RESOURCE', 'registerResource', r, `registered resource ${r.name} of type ${typeName.get(r.typeId)}`);
  for (const project of rows.projects) {
    entry('PROJECT', 'createProject', project, `created project ${project.name}`);
    for (const link of project.links) {
      const resource = { id: link.resourceId, name: resourceName.get(link.resourceId) ?? '' };
      entry('LINK', 'linkResource', project, `linked ${resource.name} to project ${project.name}`, resource);
    }
  }
  for (const tool of rows.tools) entry('TOOL', 'registerTool', tool, `registered tool ${tool.name}`);
  return version;
}

/** Inserts the rows into the migrated file in one transaction, with foreign keys enforced. */
function insertRows(path: string, rows: Rows): GeneratedCounts {
  const sqlite = new BetterSqlite3(path);
  try {
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = OFF');
    const insertType = sqlite.prepare(insertEveryColumn(RESOURCE_TYPE));
    const insertParent = sqlite.prepare(insertEveryColumn(RESOURCE_TYPE_PARENT));
    const insertResource = sqlite.prepare(insertEveryColumn(RESOURCE));
    const insertProject = sqlite.prepare(insertEveryColumn(PROJECT));
    const insertLink = sqlite.prepare(insertEveryColumn(PROJECT_RESOURCE));
    const insertTool = sqlite.prepare(insertEveryColumn(TOOL));
    const insertSlot = sqlite.prepare(insertEveryColumn(RESOURCE_SLOT));
    const insertChange = sqlite.prepare(insertEveryColumn(REGISTRY_CHANGE));
    const S = REGISTRY_STATE.columns;
    const setState = sqlite.prepare(
      `UPDATE ${REGISTRY_STATE.name} SET ${S.version} = ?, ${S.typesVersion} = ? WHERE ${S.id} = 1`,
    );

    const counts = {
      types: rows.types.length,
      typeParents: 0,
      resources: rows.resources.length,
      projects: rows.projects.length,
      links: 0,
      aliasedLinks: 0,
      tools: rows.tools.length,
      slots: 0,
      slotsByBinding: { CONTEXTUAL: 0, STATIC: 0, PARAMETER: 0 } as Record<BindingMode, number>,
    };
    // Every row is stamped as created at generation time.
    const at = new Date().toISOString();
    sqlite.transaction(() => {
      for (const type of rows.types) {
        insertType.run({ id: type.id, name: type.name, description: null, createdAt: at, updatedAt: at });
        type.parentIds.forEach((parentId, ordinal) => insertParent.run({ typeId: type.id, parentId, ordinal }));
        counts.typeParents += type.parentIds.length;
      }
      for (const r of rows.resources) {
        insertResource.run({
          id: r.id,
          name: r.name,
          nameKey: nameKey(r.name),
          shortName: r.shortName,
          typeId: r.typeId,
          description: null,
          createdAt: at,
          updatedAt: at,
        });
      }
      for (const project of rows.projects) {
        insertProject.run({
          id: project.id,
          name: project.name,
          nameKey: nameKey(project.name),
          description: null,
          createdAt: at,
          updatedAt: at,
        });
        for (const link of project.links) {
          insertLink.run({ projectId: project.id, resourceId: link.resourceId, alias: link.alias });
          counts.links += 1;
          if (link.alias !== null) counts.aliasedLinks += 1;
        }
      }
      for (const tool of rows.tools) {
        insertTool.run({
          id: tool.id,
          name: tool.name,
          nameKey: nameKey(tool.name),
          description: null,
          createdAt: at,
          updatedAt: at,
        });
        tool.slots.forEach((slot, ordinal) => {
          insertSlot.run({
            toolId: tool.id,
            ordinal,
            name: slot.name,
            resourceTypeId: slot.typeId,
            access: slot.access,
            binding: slot.binding,
            staticResourceId: slot.staticResourceId,
            required: slot.required ? 1 : 0,
          });
          counts.slots += 1;
          counts.slotsByBinding[slot.binding] += 1;
        });
      }
      // Each registration in the real server bumps `version` once, and each type registration `types_version` too;
      // each writes its change-log entry, as here (a replay of the whole log reads one entry per registration).
      const writes = writeChangeLog(rows, at, (entry) => insertChange.run(entry));
      setState.run(writes, rows.types.length);
    })();
    const broken = sqlite.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0) throw new Error(`generated database breaks ${broken.length} foreign keys`);
    // Everything into the main file, so the file alone is the whole database (it is copied without its -wal).
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return counts;
  } finally {
    sqlite.close();
  }
}
