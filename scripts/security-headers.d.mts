export declare const SECURITY_HEADERS: Readonly<Record<string, string>>;
export declare const HSTS: string;
export declare function securityHeadersFor(options: { behindHttps: boolean }): Record<string, string>;
export declare function mergeCsp(astroPolicy: string, serverPolicy?: string): string;
