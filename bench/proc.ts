// What /proc tells of processes, for the benches that measure what the pieces they start spend (fleet, capacity,
// media).
import { readdirSync, readFileSync } from "node:fs";

/** /proc's clock ticks a second (USER_HZ). */
export const TICKS = 100;

/** The CPU ticks a process has used so far (user and system); 0 once it is gone. */
export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The CPU seconds a process has used so far; 0 once it is gone. */
export const cpuSeconds = (pid: number) => cpuTicks(pid) / TICKS;

export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process and all its descendants. */
export function treeOf(pid: number): number[] {
  return [pid, ...childrenOf(pid).flatMap(treeOf)];
}

/** A process's resident memory in bytes; 0 once it is gone. */
export function rss(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Pids of every process whose name is `name` (postgres's backends, redis-server). */
export function pidsOfName(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === name) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
