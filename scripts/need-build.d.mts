// The types of need-build.mjs, for the tests that import it (the script itself runs on plain Node).
export declare const BUILT: Record<string, string[]>;
export declare function missingBuild(appDir: string): string | null;
