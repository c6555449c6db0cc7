// The types of build.mjs, for the tests that build the web's server (the script itself runs on plain Node).
export declare const WEB_DIR: string;
export declare const SERVER: string;
export declare function buildServer(): Promise<string>;
export declare function buildApp(): Promise<void>;
