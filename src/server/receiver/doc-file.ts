/**
 * A Word 97-2003 document (.doc) is an OLE compound file ([MS-CFB]), read with SheetJS `cfb`: only
 * a plain Word document passes. `cfb` follows the file's own sector chains and directory links,
 * and some of its loops trust them: a crafted directory whose siblings point at each other keeps
 * it busy, and growing, for ever. So it runs in a short-lived Node process with a small heap and a
 * deadline; past either, the file is refused. At most DOC_LIMITS.concurrent readings run at once
 * (the application's `docReadings` queue). The server only ever sees the list of entries.
 */
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import type { WorkQueue } from '../ops/work-queue.ts';

/** Why a compound file named .doc is no Word document we accept. */
export type DocFileProblem = 'unreadable' | 'notWord' | 'macros' | 'embedded' | 'fields' | 'tooSlow';

/** The work one .doc may cost: a CV of 2 MB parses in a few milliseconds. */
export const DOC_LIMITS = {
  /** The reading process is ended past this, and the file refused. */
  timeoutMs: 3000,
  /** The reading process's heap: a 2 MB file parsed honestly needs a few MB. */
  heapMb: 64,
  /** Directory entries: a 2 MB file has room for 16,384; a CV has a dozen. */
  maxEntries: 4096,
  /** Readings at once, across all requests: a flood of hostile files holds at most these cores. */
  concurrent: 2,
} as const;

/**
 * Word fields that fetch or run something when the document is opened or its fields updated:
 * DDE links run a program, INCLUDEPICTURE/INCLUDETEXT/LINK/IMPORT load a file from a path (a
 * `\\host\share` path hands the opener's Windows credentials to that host) or a URL. A CV needs none.
 */
export const FETCHING_FIELDS = 'DDE|DDEAUTO|INCLUDEPICTURE|INCLUDETEXT|LINK|IMPORT';

export const COMPOUND_FILE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const;

/**
 * Storage names that hold a macro project ([MS-OVBA] 2.2, [MS-DOC] 2.1.11): Word's `Macros`
 * with its `VBA` storage and `_VBA_PROJECT` stream, and `_VBA_PROJECT_CUR` of the other Office
 * programs. Compared case-insensitively, as compound file names are.
 */
const MACRO_NAMES = new Set(['macros', '_vba_project_cur', 'vba', '_vba_project']);

interface Entry {
  readonly name: string;
  /** [MS-CFB] 2.6.1: 1 storage, 2 stream, 5 the root storage; 0 an unused entry. */
  readonly type: number;
  /** Whether a storage has any child (its child link is set). */
  readonly hasChildren: boolean;
  /**
   * Whether a stream holds the size its entry declares: cfb stops quietly at a sector chain that
   * loops or leaves the file, and hands back less.
   */
  readonly complete: boolean;
  readonly path: string;
}

/** The reader process: the file on its standard input, the entries (or nothing) on its standard output. */
const READER_SOURCE = `
const FETCHING = /\\x13\\s*(?:${FETCHING_FIELDS})\\b/i;
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  let answer;
  try {
    const CFB = require(process.argv[1]);
    const file = CFB.read(Buffer.concat(chunks), { type: 'buffer' });
    const main = CFB.find(file, 'WordDocument');
    const text = main && main.content ? Buffer.from(main.content) : Buffer.alloc(0);
    answer = file.FileIndex.length > Number(process.argv[2]) ? { ok: false } : {
      ok: true,
      fetches: [text.toString('latin1'), text.toString('utf16le'), text.subarray(1).toString('utf16le')].some((t) => FETCHING.test(t)),
      entries: file.FileIndex.map((entry, i) => ({
        name: String(entry.name),
        type: entry.type,
        hasChildren: typeof entry.C === 'number' && entry.C >= 0,
        complete: entry.type !== 2 || (entry.content ? entry.content.length : 0) === entry.size,
        path: String(file.FullPaths[i]),
      })),
    };
  } catch {
    answer = { ok: false };
  }
  process.stdout.write(JSON.stringify(answer));
});
`;

const CFB_PATH = createRequire(import.meta.url).resolve('cfb');
const MAX_BUFFER = 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';

type Reading = { readonly entries: readonly Entry[]; readonly fetches: boolean } | { readonly problem: 'unreadable' | 'tooSlow' };

/**
 * The file's directory entries, read by cfb in a process of its own bounded in time and memory.
 * A process, not a worker thread: a worker that reaches its heap limit inside one large
 * allocation (cfb growing an array for ever) can take the whole server down with it, where a
 * process past its limit ends alone.
 */
function readEntries(bytes: Uint8Array): Promise<Reading> {
  return new Promise((resolve) => {
    const args = [`--max-old-space-size=${DOC_LIMITS.heapMb}`, '--stack-size=4000', '-e', READER_SOURCE, CFB_PATH];
    // A directory of maxEntries entries answers in well under maxBuffer; more is no answer of ours.
    const limits = { env: {}, timeout: DOC_LIMITS.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024 } as const;
    const reader = execFile(process.execPath, [...args, String(DOC_LIMITS.maxEntries)], limits, (error, answer) => {
      // Killed past its time: too slow. Out of memory, or the process could not start: refused all the same.
      if (error) return resolve({ problem: error.killed && error.code !== MAX_BUFFER ? 'tooSlow' : 'unreadable' });
      try {
        const parsed = JSON.parse(answer) as { ok: boolean; entries?: Entry[]; fetches?: boolean };
        resolve(
          parsed.ok && Array.isArray(parsed.entries)
            ? { entries: parsed.entries, fetches: parsed.fetches !== false }
            : { problem: 'unreadable' },
        );
      } catch {
        resolve({ problem: 'unreadable' });
      }
    });
    // A reader that ends before it has read the file: its answer (none) is the callback's.
    reader.stdin?.on('error', () => undefined);
    reader.stdin?.end(bytes);
  });
}

/**
 * Why a compound file is not a plain Word document (.doc); undefined when it is. Embedded objects
 * are refused because an OLE object in a .doc is run by the program it names when opened or
 * double-clicked (Equation Editor's objects and packed executables are the classic attacks on
 * Word 97-2003 files), and a CV needs none. Word writes an empty `ObjectPool` in most documents:
 * only one with children counts.
 */
export async function docFileProblem(bytes: Uint8Array, readings: WorkQueue): Promise<DocFileProblem | undefined> {
  if (bytes.byteLength < 512 || !COMPOUND_FILE_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'unreadable';
  const reading = await readings.run(() => readEntries(bytes));
  if ('problem' in reading) return reading.problem;
  const [root, ...entries] = reading.entries;
  if (root?.type !== 5) return 'unreadable';
  for (const entry of entries) {
    if (!entry.complete) return 'unreadable';
    const name = entry.name.toLowerCase();
    if (MACRO_NAMES.has(name)) return 'macros';
    if (name === 'objectpool' && entry.hasChildren) return 'embedded';
    if (name === '\u0001ole10native') return 'embedded';
  }
  const document = `${root.path}WordDocument`.toLowerCase();
  if (!entries.some((entry) => entry.type === 2 && entry.path.toLowerCase() === document)) return 'notWord';
  return reading.fetches ? 'fields' : undefined;
}
