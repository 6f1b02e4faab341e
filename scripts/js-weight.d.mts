export interface PageJavaScript {
  eager: { files: string[]; inlineBytes: number; gzipBytes: number };
  onInteraction: { files: string[]; gzipBytes: number };
}
export declare function pageJavaScript(html: string, clientDir: string): PageJavaScript;
export declare function pageType(pagePath: string): 'home' | 'form' | 'content';
export interface ProofWidgetWeight {
  files: string[];
  scriptGzipBytes: number;
  styleGzipBytes: number;
  workerGzipBytes: number;
  usesBlob: boolean;
}
export declare function proofWidgetWeight(clientDir: string): ProofWidgetWeight | undefined;
