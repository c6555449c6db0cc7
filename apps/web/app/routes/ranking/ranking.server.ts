import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession } from "../../lib/session.server.ts";
import { RANKING_PAGE } from "./ranking.ts";

/** This season's ranking (or the lifetime one with `?all`), paged by take/skip; the viewer's own standing. */
export async function loadRanking(request: Request) {
  const url = new URL(request.url);
  const lifetime = url.searchParams.get("scope") === "all";
  const skip = Math.min(100_000, Math.max(0, Number.parseInt(url.searchParams.get("skip") ?? "0", 10) || 0));
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  const query = { take: RANKING_PAGE, skip };
  let page: { season: { name: string; start: string; end: string } | null; data: RankingRow[]; total: number } = {
    season: null,
    data: [],
    total: 0,
  };
  let noSeason = false;
  let error: string | null = null;
  try {
    const r = lifetime
      ? await booth.merch.GET("/points/all-seasons-ranking", { params: { query } })
      : await booth.merch.GET("/points/season-ranking", { params: { query } });
    if (r.data) page = r.data;
  } catch (e) {
    if (isApiError(e, 404)) noSeason = true;
    else error = userMessage(e, request);
  }
  const mine = viewer
    ? await booth.merch
        .GET("/points/current-ranking-status", {})
        .then((r) => r.data ?? null)
        .catch(() => null)
    : null;
  return {
    lifetime,
    skip,
    ...page,
    noSeason,
    error,
    viewerUuid: viewer?.uuid ?? null,
    mine: mine ? { points: mine.balance, rank: mine.rank } : null,
  };
}

type RankingRow = { rank: number; userUuid: string; balance: number; nickname: string | null; avatarId: string | null };
