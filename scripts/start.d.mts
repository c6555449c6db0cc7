// The types of start.mjs, for the tests that import it (the script itself runs on plain Node, without a build).
type Env = Record<string, string | undefined>;
export declare const APPS: { edge: string; party: string; web: string };
export declare function appEnvironments(env: Env): {
  ports: { edge: number; party: number; web: number };
  edge: Env;
  party: Env;
  web: Env;
};
export declare function portIsFree(port: number): Promise<boolean>;
export declare function cleanLine(line: string, terminal: boolean): string;
