export const CLI_DIR: string;
export const BUNDLE: string;
export function buildCli(): Promise<string>;
