/**
 * The name and ref grammar, and the size limits on input.
 * Each check returns a message when the value breaks a rule, or null when it is fine.
 */

/** Ids are ULIDs: 26 characters of uppercase Crockford base32. */
export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** Resource type names: lowercase letters, digits and '-', starting with a letter. */
export const TYPE_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
/** Resource, project and tool names: '/'-separated segments of [A-Za-z0-9._-]. */
export const RESOURCE_NAME_PATTERN = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
/** Slot names and link aliases. */
export const SLOT_NAME_PATTERN = /^[a-z_][a-z0-9_-]*$/;
/** Control characters other than tab, newline and carriage return. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Size limits on input. */
export const LIMITS = {
  typeName: 100,
  resourceName: 200,
  slotName: 64,
  ref: 200,
  description: 4000,
  searchText: 200,
  parentTypes: 32,
  resourceSlots: 64,
  params: 64,
  pageSize: 100,
  batchEntries: 1000,
  defaultPageSize: 50,
} as const;

/** True when a ref has the shape of an id, and is therefore looked up as one. */
export function isIdRef(ref: string): boolean {
  return ULID_PATTERN.test(ref);
}

/** The last '/'-separated segment of a resource name. */
export function shortNameOf(resourceName: string): string {
  return resourceName.slice(resourceName.lastIndexOf('/') + 1);
}

/** Type name: grammar and length. */
export function checkTypeName(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > LIMITS.typeName) return `must be at most ${LIMITS.typeName} characters`;
  if (!TYPE_NAME_PATTERN.test(name)) return 'must be lowercase letters, digits and "-", starting with a letter';
  return null;
}

/** Resource, project or tool name: grammar, length, and not shaped like an id. */
export function checkResourceName(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > LIMITS.resourceName) return `must be at most ${LIMITS.resourceName} characters`;
  if (!RESOURCE_NAME_PATTERN.test(name)) {
    return 'must be one or more "/"-separated segments of letters, digits, ".", "_" and "-"';
  }
  if (isIdRef(name)) return 'must not have the shape of an id (26 uppercase Crockford base32 characters)';
  return null;
}

/** Slot name or link alias: grammar and length. */
export function checkSlotName(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > LIMITS.slotName) return `must be at most ${LIMITS.slotName} characters`;
  if (!SLOT_NAME_PATTERN.test(name)) {
    return 'must be lowercase letters, digits, "_" and "-", starting with a letter or "_"';
  }
  return null;
}

/** A ref: an id or a name. Anything well-formed is looked up; only malformed strings are refused. */
export function checkRef(ref: string): string | null {
  if (ref.length === 0) return 'must not be empty';
  if (ref.length > LIMITS.ref) return `must be at most ${LIMITS.ref} characters`;
  if (CONTROL_CHARACTERS.test(ref)) return 'must not contain control characters';
  if (hasLoneSurrogate(ref)) return 'must be valid Unicode text';
  return null;
}

/** Free text: length, and no control characters but tab and line breaks. */
export function checkDescription(text: string): string | null {
  if (text.length > LIMITS.description) return `must be at most ${LIMITS.description} characters`;
  if (CONTROL_CHARACTERS.test(text)) return 'must not contain control characters other than tab and line breaks';
  if (hasLoneSurrogate(text)) return 'must be valid Unicode text';
  return null;
}

/** Search text for `nameContains`. */
export function checkSearchText(text: string): string | null {
  if (text.length > LIMITS.searchText) return `must be at most ${LIMITS.searchText} characters`;
  if (CONTROL_CHARACTERS.test(text)) return 'must not contain control characters';
  if (hasLoneSurrogate(text)) return 'must be valid Unicode text';
  return null;
}

/** A batch's key (registerBatch's `key` and `after`): 1 to 64 letters, digits, ".", "_", ":" or "-" (a UUID fits). */
export function checkBatchKey(key: string): string | null {
  return /^[A-Za-z0-9._:-]{1,64}$/.test(key) ? null : 'must be 1 to 64 letters, digits, ".", "_", ":" or "-"';
}

/** A list of at most `max` entries. */
export function checkListSize(length: number, max: number): string | null {
  return length > max ? `must have at most ${max} entries` : null;
}

/** A page size between 1 and the maximum. */
export function checkPageSize(first: number): string | null {
  if (!Number.isInteger(first) || first < 1 || first > LIMITS.pageSize)
    return `must be between 1 and ${LIMITS.pageSize}`;
  return null;
}

/** True when a string holds a UTF-16 surrogate without its pair, which no database can store as text. */
function hasLoneSurrogate(text: string): boolean {
  return !text.isWellFormed();
}
