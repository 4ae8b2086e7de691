import type { ResourceInfo, SlotDefinition } from '../core/model';

/** A project row. */
export interface ProjectRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

/** A tool row. */
export interface ToolRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

/** A slot row: the core's slot definition plus its tool and position. */
export interface SlotRecord extends SlotDefinition {
  readonly toolId: string;
  readonly ordinal: number;
}

/** A project link with its resource. */
export interface LinkRecord {
  readonly projectId: string;
  readonly alias: string | null;
  readonly resource: ResourceInfo;
}

/** A keyset page request: names after `afterName`, in byte order. */
export interface PageRequest {
  readonly first: number;
  readonly afterName: string | null;
  readonly nameContains: string | null;
}

/** One page, and the size of the whole filtered list. */
export interface Page<T> {
  readonly items: T[];
  readonly totalCount: number;
  readonly hasNextPage: boolean;
}

/** The registry's change counters (see RegistryStateEntity). */
export interface RegistryState {
  readonly version: number;
  readonly typesVersion: number;
}
