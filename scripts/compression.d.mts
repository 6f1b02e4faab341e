export declare const COMPRESSIBLE_TYPES: ReadonlyMap<string, string>;
export declare const MIN_BYTES: number;
export declare function pickEncoding(header: string | undefined): 'br' | 'gzip' | undefined;
export declare function staticFileFor(pathname: string, files: ReadonlySet<string>): string | undefined;
export declare function compressedFile(clientDir: string, file: string, encoding: 'br' | 'gzip'): { type: string; body: Buffer } | undefined;
