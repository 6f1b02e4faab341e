export declare const isListingLine: (line: string) => boolean;
export declare function listingKind(line: string): 'pages' | 'images' | 'other';
