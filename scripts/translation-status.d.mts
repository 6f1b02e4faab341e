export interface Commit {
  hash: string;
  date: string;
  message: string;
}
export interface PairStatus {
  kind: 'content' | 'data' | 'string';
  english: string;
  twin: string;
  key?: string;
  status: 'missing' | 'outdated' | 'up to date';
  since?: Commit;
  commits?: Commit[];
  diff?: string;
}
export declare const NO_TRANSLATION_MARKERS: string[];
export declare const NO_TRANSLATION_TRAILER: RegExp;
export declare function isMarked(message: string): boolean;
export declare function git(cwd: string, args: string[], options?: { allowFailure?: boolean }): string;
export declare function commitsTouching(cwd: string, ref: string, file: string): Commit[];
export declare function parseDictionary(text: string | undefined): Map<string, string>;
export declare function keyChanges(
  cwd: string,
  ref: string,
  file: string,
  options?: { skipMarked?: boolean },
): { values: Map<string, string>; changes: Map<string, { commit: Commit; value: string | undefined; before: string | undefined }> };
export declare function translationStatus(cwd: string, ref?: string): PairStatus[];
export declare function introducedBy(before: PairStatus[], after: PairStatus[]): PairStatus[];
export declare function formatTable(entries: PairStatus[], options?: { ref?: string }): string;
export declare function formatComment(introduced: PairStatus[], entries: PairStatus[], options?: { marker?: string; pageUrl?: string }): string;
export declare function formatPage(entries: PairStatus[], options?: { ref?: string }): string;
