import type { DocumentStore } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/**
 * A parsed document takes about 80 bytes of heap per character of its query
 * text (its nodes, and the locations graphql-js keeps for error messages;
 * measured on Node 20: 16 KB for a 205-character query, 60 KB for the
 * 1,900-character introspection query). Apollo's default document cache
 * counts a document by its JSON length, a quarter of that, so its 30 MB could
 * hold about 130 MB of heap.
 */
export const DOCUMENT_BYTES_PER_CHARACTER = 80;

/** What a document costs beyond its nodes: the cache entry, its key (a 64-character hash). */
const ENTRY_OVERHEAD_BYTES = 300;

/**
 * Apollo's cache of parsed and validated documents (ApolloServer's
 * `documentStore`), keyed by query hash, within a budget of bytes estimated
 * from each query's length; least recently used out first (lru-cache).
 */
export class DocumentCache implements DocumentStore {
  private readonly entries: LRUCache<string, DocumentNode>;

  constructor(maxBytes = 8 * 1024 * 1024) {
    this.entries = new LRUCache<string, DocumentNode>({
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: (document) => documentBytes(document),
    });
  }

  async get(key: string): Promise<DocumentNode | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, document: DocumentNode): Promise<void> {
    this.entries.set(key, document);
  }

  async delete(key: string): Promise<boolean> {
    return this.entries.delete(key);
  }

  /** Number of documents, and their estimated bytes (for tests). */
  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.entries.calculatedSize;
  }
}

/** The estimated heap a parsed document takes, from the length of its query text. */
export function documentBytes(document: DocumentNode): number {
  const characters = document.loc?.end ?? 1000;
  return characters * DOCUMENT_BYTES_PER_CHARACTER + ENTRY_OVERHEAD_BYTES;
}
