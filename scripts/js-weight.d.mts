export interface PageJavaScript {
  /** Everything loaded without the visitor: the first view and what starts by itself after the load event. */
  eager: { files: string[]; inlineBytes: number; gzipBytes: number };
  /** What the page may ask for before its load event (inline scripts included). */
  firstView: { files: string[]; gzipBytes: number };
  /** What only islands that start by themselves after the load event need. */
  afterLoad: { files: string[]; gzipBytes: number };
  onInteraction: { files: string[]; gzipBytes: number };
}
export declare function pageJavaScript(html: string, clientDir: string): PageJavaScript;
export declare function pageType(pagePath: string): 'home' | 'form' | 'content';
