/**
 * The GitHub Actions workflows (.github/workflows): each one passes the workflow validator from
 * npm (@action-validator/core, the engine of @action-validator/cli), so a broken workflow fails
 * `npm test` here rather than on GitHub; their shell steps parse; and the preview workflow's
 * decisions (deploy or explain why not, read the preview's address) are run for real, with a
 * stand-in for the Netlify CLI.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/frontmatter';

const require = createRequire(import.meta.url);
const validator = require('@action-validator/core') as typeof import('@action-validator/core');
const CLI = require.resolve('@action-validator/cli/cli.mjs');

const DIR = path.join(ROOT, '.github/workflows');
const FILES = fs
  .readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const load = (file: string) => parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as Workflow;
const steps = (wf: Workflow) => Object.values(wf.jobs).flatMap((job) => job.steps);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-workflows-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('workflow files', () => {
  test('there is a CI workflow and a preview workflow', () => {
    expect(FILES).toEqual(expect.arrayContaining(['ci.yml', 'preview.yml']));
  });

  test.each(FILES)('%s passes the workflow validator', (file) => {
    const result = validator.validateWorkflow(fs.readFileSync(path.join(DIR, file), 'utf8'));
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toEqual([]);
  });

  test.each(FILES)('%s: every action is pinned to a major version or a commit', (file) => {
    const uses = steps(load(file)).flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses.length).toBeGreaterThan(0);
    for (const u of uses) expect(u).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@(v\d+|[0-9a-f]{40})$/);
  });

  test.each(FILES)('%s: every shell step parses, and takes expressions from env, never inline', (file) => {
    for (const step of steps(load(file))) {
      if (step.run === undefined) continue;
      const label = `${file}: ${step.name ?? step.run.slice(0, 40)}`;
      // ${{ }} pasted into a script is how pull request titles and branch names inject commands.
      expect(step.run, label).not.toContain('${{');
      const check = spawnSync('bash', ['-n'], { input: step.run, encoding: 'utf8' });
      expect(check.status, `${label}\n${check.stderr}`).toBe(0);
    }
  });

  test.each(FILES)('%s: every github-script step compiles', (file) => {
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => unknown;
    for (const step of steps(load(file))) {
      if (!step.uses?.startsWith('actions/github-script@')) continue;
      const script = String(step.with?.['script'] ?? '');
      expect(script.length).toBeGreaterThan(0);
      expect(() => new AsyncFunction('github', 'context', 'core', 'process', script)).not.toThrow();
    }
  });
});

describe('the validator catches broken workflows', () => {
  const good = 'name: ok\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n';

  test.each([
    ['a misspelt key', good.replace('steps:', 'stepz:')],
    ['an unknown event', good.replace('on: push', 'on: pushh')],
    ['broken YAML', good.replace('      - run: echo hi\n', '      - run: echo hi\n     bad: [\n')],
    ['a job without runs-on', good.replace('    runs-on: ubuntu-latest\n', '')],
  ])('%s is an error', (_label, source) => {
    expect(validator.validateWorkflow(good).errors).toEqual([]);
    expect(validator.validateWorkflow(source).errors.length).toBeGreaterThan(0);
  });

  test('the command-line validator runs here offline: 0 for a good file, 1 for a broken one', () => {
    const okFile = path.join(tmp, 'ok.yml');
    const badFile = path.join(tmp, 'bad.yml');
    fs.writeFileSync(okFile, good);
    fs.writeFileSync(badFile, good.replace('steps:', 'stepz:'));
    const run = (file: string) => spawnSync(process.execPath, [CLI, file], { encoding: 'utf8' });
    expect(run(okFile).status).toBe(0);
    const bad = run(badFile);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("Additional property 'stepz' is not allowed");
  });
});

describe('the preview workflow', () => {
  const wf = load('preview.yml');
  const step = (id: string) => {
    const found = steps(wf).find((s) => s.id === id);
    if (!found?.run) throw new Error(`preview.yml has no run step with id "${id}"`);
    return found;
  };

  /** Runs a step's script as the runner would: bash -e, with GITHUB_OUTPUT and the summary as files. */
  function runStep(s: Step, env: Record<string, string>, extraPath?: string) {
    const dir = fs.mkdtempSync(path.join(tmp, 'step-'));
    const output = path.join(dir, 'output');
    const summary = path.join(dir, 'summary');
    fs.writeFileSync(output, '');
    fs.writeFileSync(summary, '');
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', s.run ?? ''], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: extraPath ? `${extraPath}${path.delimiter}${process.env['PATH']}` : process.env['PATH'],
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        ...wf.env,
        ...env,
      },
    });
    return { ...result, dir, output: fs.readFileSync(output, 'utf8'), summary: fs.readFileSync(summary, 'utf8') };
  }

  test('netlify-cli is pinned to an exact version and run with it', () => {
    expect(wf.env?.['NETLIFY_CLI_VERSION']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(step('deploy').run).toContain('npx --yes "netlify-cli@${NETLIFY_CLI_VERSION}" deploy');
  });

  test.each([
    [{}, 'NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID'],
    [{ NETLIFY_AUTH_TOKEN: 'token' }, 'NETLIFY_SITE_ID'],
    [{ NETLIFY_SITE_ID: 'site' }, 'NETLIFY_AUTH_TOKEN'],
  ])('without the secrets %j it succeeds, skips the deploy and says why', (secrets, missing) => {
    const r = runStep(step('host'), { NETLIFY_AUTH_TOKEN: '', NETLIFY_SITE_ID: '', PR_NUMBER: '42', ...secrets });
    expect(r.status, r.stderr).toBe(0);
    expect(r.output).toBe('deploy=false\n');
    expect(r.stdout).toContain(
      `::notice title=Preview not deployed::No preview deployed: the repository secret ${missing} is not available`,
    );
    expect(r.summary).toContain('### Preview not deployed');
    expect(r.summary).toContain('site-pr-42');
  });

  test('with both secrets it deploys, and only then', () => {
    const r = runStep(step('host'), { NETLIFY_AUTH_TOKEN: 'token', NETLIFY_SITE_ID: 'site', PR_NUMBER: '42' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.output).toBe('deploy=true\n');
    expect(r.stdout).not.toContain('::notice');
    expect(step('deploy').if).toBe("steps.host.outputs.deploy == 'true'");
    const comment = steps(wf).find((s) => s.uses?.startsWith('actions/github-script@'));
    expect(comment?.if).toBe("steps.deploy.outputs.url != ''");
  });

  /** A stand-in for npx: records its arguments, prints what netlify-cli prints (a log line, then JSON). */
  function fakeNpx(json: string): string {
    const bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
    fs.writeFileSync(
      path.join(bin, 'npx'),
      `#!/usr/bin/env bash\nprintf '%s\\n' "$@" > "$PWD/npx-args"\necho 'Deploying to draft URL...'\ncat <<'JSON'\n${json}\nJSON\n`,
      { mode: 0o755 },
    );
    return bin;
  }

  test('the deploy uploads dist/client as a draft aliased to the pull request, and outputs its address', () => {
    const json = JSON.stringify(
      {
        site_id: 'site',
        site_name: 'globaq',
        deploy_id: 'abc',
        deploy_url: 'https://pr-42--globaq.netlify.app',
        logs: 'https://app.netlify.com/x',
      },
      null,
      2,
    );
    const env = { NETLIFY_AUTH_TOKEN: 'token', NETLIFY_SITE_ID: 'site', PR_NUMBER: '42', HEAD_SHA: 'f00dfeed' };
    const r = runStep(step('deploy'), env, fakeNpx(json));
    expect(r.status, r.stderr).toBe(0);
    expect(r.output).toBe('url=https://pr-42--globaq.netlify.app\n');
    expect(r.summary).toContain('https://pr-42--globaq.netlify.app');
    const args = fs.readFileSync(path.join(r.dir, 'npx-args'), 'utf8').trim().split('\n');
    expect(args).toEqual([
      '--yes',
      `netlify-cli@${wf.env?.['NETLIFY_CLI_VERSION']}`,
      'deploy',
      '--dir',
      'dist/client',
      '--no-build',
      '--alias',
      'pr-42',
      '--message',
      'Pull request #42 at f00dfeed',
      '--json',
    ]);
  });

  test('a deploy that reports no address fails the step, rather than commenting nothing', () => {
    const r = runStep(step('deploy'), { PR_NUMBER: '42', HEAD_SHA: 'f00dfeed' }, fakeNpx('{"error": "Unauthorized"}'));
    expect(r.status).not.toBe(0);
    expect(r.output).toBe('');
  });

  test('the build points the forms at the repository variables only when they are set', () => {
    const build = steps(wf).find((s) => s.name === 'Build the static site');
    expect(build?.env).toMatchObject({
      PREVIEW_CONTACT_ENDPOINT: '${{ vars.PREVIEW_CONTACT_ENDPOINT }}',
      PREVIEW_PARTNER_ENDPOINT: '${{ vars.PREVIEW_PARTNER_ENDPOINT }}',
    });
    // Run the script up to the build itself, with npm replaced by a recorder of the environment.
    const bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
    fs.writeFileSync(path.join(bin, 'npm'), '#!/usr/bin/env bash\nenv | grep ^PUBLIC_ > "$PWD/build-env" || true\nexit 1\n', {
      mode: 0o755,
    });
    const script = { run: build?.run ?? '' };
    const unset = runStep(script, { PREVIEW_CONTACT_ENDPOINT: '', PREVIEW_PARTNER_ENDPOINT: '' }, bin);
    expect(fs.readFileSync(path.join(unset.dir, 'build-env'), 'utf8')).toBe('');
    const set = runStep(
      script,
      {
        PREVIEW_CONTACT_ENDPOINT: 'https://script.example/exec?form=contact',
        PREVIEW_PARTNER_ENDPOINT: 'https://script.example/exec?form=partner',
      },
      bin,
    );
    expect(fs.readFileSync(path.join(set.dir, 'build-env'), 'utf8').split('\n').sort().filter(Boolean)).toEqual([
      'PUBLIC_CONTACT_ENDPOINT=https://script.example/exec?form=contact',
      'PUBLIC_PARTNER_ENDPOINT=https://script.example/exec?form=partner',
    ]);
  });

  describe('translation status', () => {
    const translations = step('translations');
    const commentStep = steps(wf).find((s) => s.name === 'Comment the translation status on the pull request');

    test('the checkout has the whole history, and the status runs after the build and before the upload', () => {
      const checkout = steps(wf).find((s) => s.uses?.startsWith('actions/checkout@'));
      expect(checkout?.with?.['fetch-depth']).toBe(0);
      const names = steps(wf).map((s) => s.name ?? s.uses);
      expect(names.indexOf('Translation status')).toBeGreaterThan(names.indexOf('Build the static site'));
      expect(names.indexOf('Translation status')).toBeLessThan(names.indexOf('Upload the build'));
    });

    test('it compares with the base branch, writes the comment and the preview page, and reports without failing the run', () => {
      const bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
      fs.writeFileSync(
        path.join(bin, 'npm'),
        '#!/usr/bin/env bash\nprintf \'%s\\n\' "$@" > "$PWD/npm-args"\necho "<!-- globaq-translations -->" > translation-status.md\necho "This pull request leaves no Arabic twin behind." >> translation-status.md\n',
        { mode: 0o755 },
      );
      const r = runStep(translations, { BASE_REF: 'main' }, bin);
      expect(r.status, r.stderr).toBe(0);
      expect(fs.readFileSync(path.join(r.dir, 'npm-args'), 'utf8').trim().split('\n')).toEqual([
        'run',
        '--silent',
        'translations',
        '--',
        '--base',
        'origin/main',
        '--comment',
        'translation-status.md',
        '--page',
        'dist/client/translation-status.html',
      ]);
      expect(r.summary).toContain('This pull request leaves no Arabic twin behind.');
      // No --check: the English change never waits for the translator.
      expect(translations.run).not.toContain('--check');
      expect(translations.env).toEqual({ BASE_REF: '${{ github.event.pull_request.base.ref }}' });
    });

    const TRANSLATIONS =
      '<!-- globaq-translations -->\n### Arabic translations\n\n| missing | `src/content/ar/services/quality-digitalization.mdx` | `src/content/services/quality-digitalization.mdx` |\n';

    /** The comment step's script, run as actions/github-script runs it, on a recorded pull_request event. */
    async function runComment(
      existing: { id: number; body: string; user: { type: string } }[],
      previewUrl = '',
      { step = commentStep, status = TRANSLATIONS } = {},
    ) {
      const event = JSON.parse(
        fs.readFileSync(path.join(ROOT, 'tests/fixtures/github/pull-request-synchronize.json'), 'utf8'),
      ) as {
        pull_request: { number: number };
        repository: { name: string; owner: { login: string } };
      };
      const context = { payload: event, repo: { owner: event.repository.owner.login, repo: event.repository.name } };
      const calls: { method: string; args: Record<string, unknown> }[] = [];
      const record = (method: string) => async (args: Record<string, unknown>) => {
        calls.push({ method, args });
        return { data: {} };
      };
      const github = {
        rest: {
          issues: {
            listComments: record('listComments'),
            createComment: record('createComment'),
            updateComment: record('updateComment'),
          },
        },
        paginate: async (method: unknown, args: Record<string, unknown>) => {
          calls.push({ method: 'paginate', args });
          expect(method).toBe(github.rest.issues.listComments);
          return existing;
        },
      };
      const statusFile = path.join(fs.mkdtempSync(path.join(tmp, 'status-')), 'translation-status.md');
      fs.writeFileSync(statusFile, status);
      const env = { ...(step?.env ?? {}), STATUS_FILE: statusFile, PREVIEW_URL: previewUrl };
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
        ...args: string[]
      ) => (...values: unknown[]) => Promise<void>;
      const script = new AsyncFunction('github', 'context', 'core', 'process', 'require', String(step?.with?.['script'] ?? ''));
      await script(github, context, {}, { env }, require);
      return calls;
    }

    test('the comment step posts the status on the pull request of the recorded event', async () => {
      expect(commentStep?.uses).toMatch(/^actions\/github-script@v7$/);
      const calls = await runComment([{ id: 1, body: 'Looks good', user: { type: 'User' } }], 'https://pr-7--globaq.netlify.app');
      expect(calls.map((c) => c.method)).toEqual(['paginate', 'createComment']);
      expect(calls[0]?.args).toMatchObject({ owner: 'globaq', repo: 'website', issue_number: 7 });
      const body = String(calls[1]?.args['body']);
      expect(calls[1]?.args).toMatchObject({ owner: 'globaq', repo: 'website', issue_number: 7 });
      expect(body).toContain('src/content/ar/services/quality-digitalization.mdx');
      expect(body).toContain('Each pair and its English diff: https://pr-7--globaq.netlify.app/translation-status.html');
    });

    test('on the next push it updates its own comment, and leaves out the page link when nothing was deployed', async () => {
      const calls = await runComment([
        { id: 1, body: 'Looks good', user: { type: 'User' } },
        { id: 2, body: '<!-- globaq-preview -->\nPreview', user: { type: 'Bot' } },
        { id: 3, body: '<!-- globaq-translations -->\nold status', user: { type: 'Bot' } },
      ]);
      expect(calls.map((c) => c.method)).toEqual(['paginate', 'updateComment']);
      expect(calls[1]?.args).toMatchObject({ owner: 'globaq', repo: 'website', comment_id: 3 });
      expect(String(calls[1]?.args['body'])).not.toContain('translation-status.html');
    });

    test("it comments only on the repository's own pull requests (a fork's token cannot)", () => {
      expect(commentStep?.if).toBe(
        "steps.translations.outcome == 'success' && github.event.pull_request.head.repo.full_name == github.repository",
      );
    });

    // The launch check (npm run launch-check) is reported and commented the same way.
    test('the launch check writes its comment and the summary, and reports without failing the run', () => {
      const bin = fs.mkdtempSync(path.join(tmp, 'bin-'));
      const npm =
        '#!/usr/bin/env bash\nprintf \'%s\\n\' "$@" > "$PWD/npm-args"\necho "- vatNumber is not set" > launch-check.md\nexit 1\n';
      fs.writeFileSync(path.join(bin, 'npm'), npm, { mode: 0o755 });
      const r = runStep(step('launch'), {}, bin);
      expect(r.status, r.stderr).toBe(0);
      const args = fs.readFileSync(path.join(r.dir, 'npm-args'), 'utf8').trim().split('\n');
      expect(args).toEqual(['run', '--silent', 'launch-check', '--', '--comment', 'launch-check.md']);
      expect(r.summary).toContain('vatNumber is not set');
    });

    test("the launch check's comment step updates its own comment, on the repository's own pull requests", async () => {
      const launch = steps(wf).find((s) => s.name === 'Comment the launch check on the pull request');
      const status = '<!-- globaq-launch-check -->\n### Before going live\n\n- vatNumber is not set\n';
      const existing = [
        { id: 3, body: '<!-- globaq-translations -->\nold status', user: { type: 'Bot' } },
        { id: 4, body: '<!-- globaq-launch-check -->\nold list', user: { type: 'Bot' } },
      ];
      const calls = await runComment(existing, '', { step: launch, status });
      expect(calls.map((c) => c.method)).toEqual(['paginate', 'updateComment']);
      expect(calls[1]?.args).toMatchObject({ comment_id: 4, body: status });
      expect((await runComment(existing.slice(0, 1), '', { step: launch, status })).map((c) => c.method)).toEqual([
        'paginate',
        'createComment',
      ]);
      expect(launch?.if).toBe(
        "steps.launch.outcome == 'success' && github.event.pull_request.head.repo.full_name == github.repository",
      );
    });
  });
});
