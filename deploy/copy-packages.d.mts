/** The folders of `names` (looked up from `from`) and of every package they load, each once. */
export function packageClosure(from: string, names: string[]): string[];
/** Copies a workspace's production dependencies, `names`, and what they load, from under `root` to `to`. */
export function copyPackages(options: { root: string; to: string; workspace: string; names?: string[] }): string[];
