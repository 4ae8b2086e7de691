import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { repositoryRoot } from '../../src/demo/demo-data';
import { runScript } from './cli';
import type { TestServer } from './server';
import { collect, subscriptionClient } from './subscriptions';

const run = promisify(execFile);

/**
 * The examples of a Markdown document, and a runner that sends them, in
 * document order, to a server, as a reader would copy them.
 *
 * - A `graphql` block is sent as it is: a query or mutation over HTTP, a
 *   subscription over WebSocket (its first event is awaited). Its answer must
 *   have no errors.
 * - A `sh` or `bash` block that calls `curl` on `localhost:4000` runs in bash
 *   with that address pointed at the server; it must exit 0 and print no
 *   GraphQL `"errors"`. A comment `# HTTP/1.1 <status>` in it says a status
 *   line its output must contain.
 * - A `console` block is a transcript of commands typed in a folder that
 *   holds `examples/` (a scratch folder, one per document): each `$ npm run
 *   register -- …` or `$ npm run export -- …` runs the CLI against the server,
 *   other commands run in bash, and each must print the lines shown under it
 *   (npm's own `> …` lines and blank lines aside). A `yaml` block whose first
 *   line is `# <file>.yaml` is written to that file in the folder first, as a
 *   reader would save it.
 * - A `json` block right after a request is that request's answer, shown
 *   whole (`{"data": …}`), as its one root field's value, or as any value
 *   within it (an excerpt); the answer must hold it exactly.
 * - An HTML comment on the line before a block says what else to expect:
 *   `<!-- example: expect CODE -->` (the answer has an error with that
 *   `extensions.code`, and no JSON follows) or `<!-- example: skip REASON -->`
 *   (not run).
 * Other blocks (configuration, commands that need more than a server) are
 * not examples of requests and are not run.
 */
export interface Block {
  readonly lang: string;
  readonly text: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** What the `<!-- example: … -->` comment before the block says, if any. */
  readonly annotation: { readonly kind: 'expect' | 'skip'; readonly value: string } | null;
}

/** The fenced blocks of a Markdown text (also those indented in a list), in order. */
export function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)) {
    const indent = match[1].length;
    const text = match[3].replace(new RegExp(`^ {0,${indent}}`, 'gm'), '');
    const before = markdown.slice(0, match.index);
    const line = before.split('\n').length;
    const previous = before.trimEnd().split('\n').pop() ?? '';
    const comment = /^\s*<!-- example: (expect|skip)\s+(.*?)\s*-->$/.exec(previous);
    const annotation = comment ? { kind: comment[1] as 'expect' | 'skip', value: comment[2] } : null;
    blocks.push({ lang: match[2], text, line, annotation });
  }
  return blocks;
}

/** Whether a block is a request the runner sends. */
export function isRequest(block: Block): boolean {
  if (block.lang === 'graphql' || block.lang === 'console') return true;
  return (block.lang === 'sh' || block.lang === 'bash') && /\bcurl\b[^\n]*localhost:4000/.test(block.text);
}

export interface Report {
  /** Requests sent, answers compared, and blocks skipped by annotation. */
  sent: number;
  compared: number;
  skipped: number;
  /** One line per example that did not do what the document says. */
  failures: string[];
}

interface Answer {
  readonly body: unknown;
  readonly problem: string | null;
}

/** Sends every example of a document to the server, in order, and reports what failed. */
export async function runExamples(name: string, markdown: string, server: TestServer): Promise<Report> {
  const folder = mkdtempSync(join(tmpdir(), 'documented-examples-'));
  symlinkSync(join(repositoryRoot(), 'examples'), join(folder, 'examples'));
  try {
    return await runIn(folder, name, markdown, server);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function runIn(folder: string, name: string, markdown: string, server: TestServer): Promise<Report> {
  const report: Report = { sent: 0, compared: 0, skipped: 0, failures: [] };
  let last: unknown = undefined;
  for (const block of blocksOf(markdown)) {
    const where = `${name}:${block.line}`;
    if (block.annotation?.kind === 'skip') {
      report.skipped++;
      last = undefined;
      continue;
    }
    const file = /^# ([\w./-]+\.ya?ml)\n/.exec(block.text);
    if (block.lang === 'yaml' && file) {
      mkdirSync(dirname(join(folder, file[1])), { recursive: true });
      writeFileSync(join(folder, file[1]), block.text);
    }
    if (isRequest(block)) {
      const answer =
        block.lang === 'console' ? await transcript(block.text, folder, server) : await send(block, server);
      report.sent++;
      const expected = block.annotation?.kind === 'expect' ? block.annotation.value : null;
      const problem = expected === null ? answer.problem : expectCode(answer.body, expected);
      if (problem !== null) report.failures.push(`${where}: ${problem}\n${block.text}`);
      last = problem === null && expected === null ? answer.body : undefined;
    } else if (block.lang === 'json' && last !== undefined) {
      const shown = JSON.parse(block.text) as unknown;
      if (!holds(last, shown))
        report.failures.push(`${where}: the answer does not hold the JSON shown\nanswer: ${JSON.stringify(last)}`);
      report.compared++;
      last = undefined;
    }
  }
  return report;
}

async function send(block: Block, server: TestServer): Promise<Answer> {
  if (block.lang !== 'graphql') return shell(block.text, server);
  if (/^\s*subscription\b/.test(block.text)) {
    const client = subscriptionClient(server.url);
    try {
      const { items, errors } = await collect(client, block.text, {}, (got) => got.length > 0);
      if (errors.length > 0) return { body: { errors }, problem: `errors: ${JSON.stringify(errors)}` };
      if (items.length === 0) return { body: null, problem: 'the subscription sent nothing' };
      return { body: { data: { event: items[0] } }, problem: null };
    } finally {
      await client.dispose();
    }
  }
  const { status, body } = await server.gql(block.text);
  const problem = body.errors || status !== 200 ? `HTTP ${status}, errors: ${JSON.stringify(body.errors)}` : null;
  return { body, problem };
}

/** Runs a curl example in bash against the server. */
async function shell(script: string, server: TestServer): Promise<Answer> {
  const host = new URL(server.origin).host;
  const text = script.replace(/localhost:4000/g, host);
  let stdout: string;
  try {
    ({ stdout } = await run('bash', ['-c', `set -eo pipefail\n${text}`], { timeout: 30_000 }));
  } catch (error) {
    return { body: null, problem: `the command failed: ${(error as Error).message}` };
  }
  if (stdout.includes('"errors"')) return { body: null, problem: `errors in the output: ${stdout}` };
  for (const [, status] of text.matchAll(/^# (HTTP\/1\.1 \d{3})/gm)) {
    if (!stdout.includes(status)) return { body: null, problem: `no "${status}" in the output: ${stdout}` };
  }
  try {
    return { body: JSON.parse(stdout) as unknown, problem: null };
  } catch {
    return { body: undefined, problem: null };
  }
}

/** Runs the commands of a console transcript in the folder, each of which must print what the transcript shows. */
async function transcript(text: string, folder: string, server: TestServer): Promise<Answer> {
  for (const [, command, shown] of text.matchAll(/^\$ (.*)\n((?:(?!\$ ).*\n?)*)/gm)) {
    const printed = await commandOutput(command, folder, server);
    const expected = lines(shown.split('\n').filter((line) => !line.startsWith('> ')));
    if (!isDeepStrictEqual(lines(printed.split('\n')), expected))
      return { body: null, problem: `\`${command}\` printed:\n${printed}` };
  }
  return { body: undefined, problem: null };
}

function lines(all: string[]): string[] {
  return all.map((line) => line.trimEnd()).filter((line) => line !== '');
}

/** What a command of a transcript prints: the CLI's own output for npm run register/export, else bash's. */
async function commandOutput(command: string, folder: string, server: TestServer): Promise<string> {
  const npm = /^npm run (register|export) -- (.*)$/.exec(command);
  if (npm) {
    const args = npm[2].split(/\s+/).filter(Boolean);
    const env = { npm_lifecycle_event: npm[1], INIT_CWD: folder };
    const run = await runScript(npm[1], ['--url', server.url, ...args], env);
    return run.stdout + run.stderr;
  }
  try {
    return (await run('bash', ['-c', command], { cwd: folder, timeout: 30_000 })).stdout;
  } catch (error) {
    return `the command failed: ${(error as Error).message}`;
  }
}

function expectCode(body: unknown, code: string): string | null {
  const errors = (body as { errors?: { extensions?: { code?: string } }[] } | null)?.errors ?? [];
  const codes = errors.map((error) => error.extensions?.code);
  return codes.includes(code) ? null : `expected an error ${code}, got ${JSON.stringify(body)}`;
}

/** Whether the answer is the JSON shown, or its one root field's value, or holds it as any value within. */
function holds(answer: unknown, shown: unknown): boolean {
  if (isDeepStrictEqual(answer, shown)) return true;
  if (answer === null || typeof answer !== 'object') return false;
  return Object.values(answer).some((value) => holds(value, shown));
}
