/** Why `value` cannot be the edge's address for deployed rooms, or null when it can. */
export function edgeUrlProblem(value: string | undefined): string | null;
