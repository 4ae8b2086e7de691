/**
 * What a registry holds, in plain records: things by name (never by id),
 * enums in their GraphQL spelling, and null where a value is absent. The
 * register CLI compares file entries with these, and the export writes them
 * out as files.
 */
import type { Access, BindingMode } from '../core/model';

/** A resource type, with its direct parents by name in declaration order. */
export interface TypeState {
  readonly name: string;
  readonly description: string | null;
  readonly parentTypes: readonly string[];
}

/** A resource and the name of its type. */
export interface ResourceState {
  readonly name: string;
  readonly type: string;
  readonly description: string | null;
}

/** A project's link to a resource, by the resource's name. */
export interface LinkState {
  readonly resource: string;
  readonly alias: string | null;
}

/** A project and its links. */
export interface ProjectState {
  readonly name: string;
  readonly description: string | null;
  readonly links: readonly LinkState[];
}

/** One slot of a tool, every field explicit. */
export interface SlotState {
  readonly name: string;
  readonly resourceType: string;
  readonly access: Access;
  readonly binding: BindingMode;
  readonly staticResource: string | null;
  readonly required: boolean;
}

/** A tool and its slots, in declaration order. */
export interface ToolState {
  readonly name: string;
  readonly description: string | null;
  readonly resourceSlots: readonly SlotState[];
}

/** A whole registry. */
export interface RegistryState {
  readonly resourceTypes: readonly TypeState[];
  readonly resources: readonly ResourceState[];
  readonly projects: readonly ProjectState[];
  readonly tools: readonly ToolState[];
}

/** The things a registry holds under some names; null (or undefined) when it holds nothing of that name. */
export interface StateLookup {
  resourceType(name: string): TypeState | null | undefined;
  resource(name: string): ResourceState | null | undefined;
  project(name: string): ProjectState | null | undefined;
  tool(name: string): ToolState | null | undefined;
}
