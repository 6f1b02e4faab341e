export declare const ALIASES: ReadonlyMap<string, string>;
export declare const COMING_SOON_FILE: string;
export type RouteDecision =
  | { kind: 'pass' }
  | { kind: 'rewrite'; pathname: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'file'; file: string; status: number };
export declare function resolveRoute(pathname: string, files: ReadonlySet<string>): RouteDecision;
