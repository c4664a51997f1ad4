import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { repoRoot } from './reference.js';

/** A fenced code block of the README: its language, the file name after it (```json pipeline.json) and its text. */
export interface ReadmeBlock {
  readonly language: string;
  readonly file: string | undefined;
  readonly text: string;
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(): ReadmeBlock[] {
  const text = readFileSync(`${repoRoot}/README.md`, 'utf8');
  return [...text.matchAll(/^```(\w+)(?: (\S+))?\n([\s\S]*?)^```$/gm)].map((m) => ({ language: m[1], file: m[2], text: m[3] }));
}

/** The commands of the README's sh blocks, one per line, comments removed. */
export function readmeCommands(): string[] {
  return readmeBlocks().filter((b) => b.language === 'sh').flatMap((b) => b.text.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== ''));
}

/** A TypeScript snippet as an ES module Node runs (types stripped, top-level await kept). */
export function transpileSnippet(source: string): string {
  return ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } }).outputText;
}
