// The types of build.mjs, for the tests that build the edge (the script itself runs on plain Node).
export declare const EDGE_DIR: string;
export declare const DIST: string;
export declare const ENTRIES: string[];
export declare function buildEdge(outdir?: string): Promise<Record<string, string>>;
