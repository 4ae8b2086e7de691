/**
 * Words for people: counts with the right plural, "a" or "an", times with
 * their time zone and how long ago, and what each status means.
 *
 * No DOM here: the tests import this module.
 */
import type { CellStatus, FailureReason, SlotStatus } from './generated/operations';

/** The word for `n` of a thing: "1 slot", "2 slots", "0 entries"; a phrase ends in its noun ("1 binding change"). */
export function plural(n: number, word: string, pluralForm?: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? word : (pluralForm ?? pluralOf(word))}`;
}

/** The plural of a phrase's last word, by English's regular rules (entry → entries, match → matches). */
export function pluralOf(phrase: string): string {
  const words = phrase.split(' ');
  const last = words.pop()!;
  const many = /[^aeiou]y$/.test(last)
    ? `${last.slice(0, -1)}ies`
    : /(s|x|z|ch|sh)$/.test(last)
      ? `${last}es`
      : `${last}s`;
  return [...words, many].join(' ');
}

/** Letters whose names start with a vowel sound ("an F", "an S"). */
const VOWEL_SOUND_LETTERS = new Set('aefhilmnorsx');

/**
 * "a" or "an" before a word, by its sound: "an fs-directory" (an initialism,
 * said letter by letter), "a git-checkout", "an image", "a user".
 */
export function article(word: string): 'a' | 'an' {
  const lower = word.toLowerCase();
  const head = lower.split(/[^a-z0-9]/)[0];
  if (head === '') return 'a';
  // An initialism (no vowel, at most 4 letters: fs, sql, k8s): said letter by letter.
  if (head.length <= 4 && !/[aeiouy]/.test(head)) return VOWEL_SOUND_LETTERS.has(head[0]) ? 'an' : 'a';
  // "u" said "you": a user, a unit, a uniform; "eu" likewise.
  if (/^(uni|use|usu|uti|ure|eu)/.test(head)) return 'a';
  // A silent h: an hour, an honest.
  if (/^(hour|honest|honou?r|heir)/.test(head)) return 'an';
  return /^[aeiou]/.test(head) ? 'an' : 'a';
}

/** The word with its article: "an fs-directory". */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}

/** "a, b and c". */
export function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'long' });

/** How long ago (or until) a time is, from `now`: "just now", "3 minutes ago", "yesterday". */
export function relativeTime(at: Date, now: Date): string {
  const seconds = (at.getTime() - now.getTime()) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86_400],
    ['week', 604_800],
    ['month', 2_629_800],
    ['year', 31_557_600],
  ];
  let chosen = units[0];
  for (const unit of units) if (abs >= unit[1] * 0.9) chosen = unit;
  return RELATIVE.format(Math.round(seconds / chosen[1]), chosen[0]);
}

/**
 * A time as people read it, with its time zone: "4 Dec 2026, 20:32:40 GMT+1"
 * (in the browser's zone, or `timeZone`).
 */
export function absoluteTime(at: Date, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'long',
    ...(timeZone ? { timeZone } : {}),
  }).format(at);
}

/** Both: "4 Dec 2026, 20:32:40 GMT+1 (3 minutes ago)"; the text as it is when it is not a time. */
export function describeTime(
  iso: string,
  now: Date = new Date(),
  timeZone?: string,
): { absolute: string; relative: string } {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { absolute: iso, relative: '' };
  return { absolute: absoluteTime(at, timeZone), relative: relativeTime(at, now) };
}

/** How each cell status is shown: a word, a mark that does not depend on colour, and what it means. */
export const CELL_STATUS: Readonly<Record<CellStatus, { label: string; mark: string; meaning: string }>> = {
  READY: { label: 'Ready', mark: '✓', meaning: 'every slot is bound' },
  DEFERRED: {
    label: 'Deferred',
    mark: '…',
    meaning: 'bound, apart from slots that wait for a resource passed when the tool runs',
  },
  OPTIONAL_UNBOUND: {
    label: 'Optional unbound',
    mark: '○',
    meaning: 'nothing fails, but an optional slot found nothing',
  },
  FAILED: {
    label: 'Failed',
    mark: '✕',
    meaning: 'at least one slot cannot be bound; open the cell to see why and how to fix it',
  },
};

/** What a slot status is, in a word or two. */
export const SLOT_STATUS: Readonly<Record<SlotStatus, string>> = {
  BOUND: 'bound',
  DEFERRED: 'deferred',
  UNBOUND_OPTIONAL: 'optional, unbound',
  FAILED: 'failed',
  ABSENT: 'absent',
};

/** Why a slot fails, in words. */
export const FAILURE: Readonly<Record<FailureReason, string>> = {
  AMBIGUOUS: 'ambiguous: several linked resources fit',
  NO_MATCH: 'nothing linked fits',
  NOT_FOUND: 'the named resource is not registered',
  TYPE_MISMATCH: 'the resource is of the wrong type',
};

/** The short form of a failure reason, for tight places. */
export const FAILURE_SHORT: Readonly<Record<FailureReason, string>> = {
  AMBIGUOUS: 'ambiguous',
  NO_MATCH: 'no match',
  NOT_FOUND: 'not found',
  TYPE_MISMATCH: 'wrong type',
};
