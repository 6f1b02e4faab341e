/**
 * React Compiler memoizes every island's components and hooks (astro.config.mjs), so a key typed
 * into one field re-renders that field, not the whole form. The compiler skips a function it
 * cannot compile without a word: an ESLint rule switched off in it, a syntax the Babel version in
 * use gives it in a shape it does not know. Here each island file goes through the compiler with
 * the project's own Babel, and every component and hook must come out compiled.
 */
import { transformAsync } from '@babel/core';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';

const ISLANDS = path.join(ROOT, 'src/components/islands');

/** Functions left to React on purpose, each with its reason. */
const LEFT_UNCOMPILED: Record<string, string> = {
  // The widget's custom element takes its callback ref through createElement, which the compiler
  // reads as a ref used in render; it re-renders only on its own state.
  'use-proof.tsx ProofWidget': 'a custom element made with createElement',
};

interface CompilerEvent {
  kind: string;
  fnName?: string | null;
  fnLoc?: { start: { line: number } } | null;
  detail?: { reason?: string; options?: { reason?: string } };
}

async function compile(file: string) {
  const events: CompilerEvent[] = [];
  const source = fs.readFileSync(path.join(ISLANDS, file), 'utf8');
  await transformAsync(source, {
    filename: path.join(ISLANDS, file),
    babelrc: false,
    configFile: false,
    parserOpts: { plugins: ['typescript', 'jsx'] },
    plugins: [['babel-plugin-react-compiler', { logger: { logEvent: (_: string, event: CompilerEvent) => events.push(event) } }]],
  });
  // A function the compiler gave up on is named by its place only: its name is read there.
  const lines = source.split('\n');
  return events.map((event) => ({
    ...event,
    fnName:
      event.fnName ??
      /function\s+(\w+)|(\w+)\s*=/
        .exec(lines[(event.fnLoc?.start.line ?? 0) - 1] ?? '')
        ?.slice(1)
        .find(Boolean),
  }));
}

const files = fs.readdirSync(ISLANDS).filter((file) => /\.tsx?$/.test(file));

describe('React Compiler compiles every island', () => {
  test.each(files)('%s', async (file) => {
    const events = await compile(file);
    const skipped = events
      .filter((event) => event.kind === 'CompileError' || event.kind === 'CompileSkip' || event.kind === 'PipelineError')
      .map((event) => `${file} ${event.fnName ?? '?'}: ${event.detail?.reason ?? event.detail?.options?.reason ?? event.kind}`)
      .filter((line) => !Object.keys(LEFT_UNCOMPILED).some((known) => line.startsWith(`${known}:`)));
    expect(skipped).toEqual([]);
  });

  test('the forms and their fields are among the compiled functions', async () => {
    const compiled = new Set<string>();
    for (const file of ['PartnerForm.tsx', 'ContactForm.tsx', 'form-ui.tsx', 'form-frame.tsx']) {
      for (const event of await compile(file)) if (event.kind === 'CompileSuccess' && event.fnName) compiled.add(event.fnName);
    }
    for (const name of ['PartnerForm', 'ContactForm', 'FieldControl', 'TextField', 'ChoiceGroup', 'ErrorSummary', 'SendOutcome'])
      expect(compiled, name).toContain(name);
  });
});
