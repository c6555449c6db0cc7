import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHero } from "../../components/page-hero.tsx";
import { RoomCard } from "../../components/room-card.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";
import { useRevalidateEvery } from "../../lib/use-interval.ts";
import { FriendsActivity } from "./friends-activity.tsx";
import { loadDemoProgress, loadFriendsActivity, loadRoomTab, setFavorite } from "./rooms.server.ts";
import { ROOM_PAGE, ROOM_TABS, type RoomTab } from "./tabs.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Rooms") }];

/** Room lists are loaded again every 30 s (the spec leaves the interval open). */
const REFETCH_MS = 30_000;
/** An empty list is looked at again sooner: on a fresh instance the demo rooms open seconds after the web answers. */
const EMPTY_REFETCH_MS = 3_000;
/** While the demo's songs load, its progress is looked at again this often. */
const DEMO_REFETCH_MS = 2_000;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const asked = url.searchParams.get("tab");
  const tab: RoomTab = ROOM_TABS.includes(asked as RoomTab) ? (asked as RoomTab) : "discover";
  const page = Math.max(0, Number.parseInt(url.searchParams.get("page") ?? "0", 10) || 0);
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  const [lists, demo, activity] = await Promise.all([
    loadRoomTab(booth, tab, Boolean(viewer), page, request),
    loadDemoProgress(booth),
    viewer ? loadFriendsActivity(booth) : [],
  ]);
  return { tab, page, signedIn: Boolean(viewer), ...lists, demo: demo?.loading ? demo : null, activity };
}

export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  if (form.get("intent") !== "favorite") return data({ error: "Unknown action." }, { status: 400 });
  try {
    await setFavorite(sdkFor(token), String(form.get("roomUuid")), form.get("favorite") === "true");
    return { ok: true };
  } catch (error) {
    return data({ error: userMessage(error, request) }, { status: 400 });
  }
}

export default function Rooms() {
  const { t } = useTranslation("rooms");
  const { tab, page, signedIn, promoted, rooms, total, communities, error, demo, activity } =
    useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  useRevalidateEvery(demo ? DEMO_REFETCH_MS : rooms.length || promoted.length ? REFETCH_MS : EMPTY_REFETCH_MS);
  const tabLink = (name: RoomTab) => {
    const next = new URLSearchParams(params);
    next.set("tab", name);
    next.delete("page");
    return `/?${next}`;
  };
  const visibleTabs = ROOM_TABS.filter((name) => name === "discover" || signedIn);
  return (
    <div className="stack">
      <PageHero title={t("title")} subtitle={t("subtitle")}>
        {signedIn ? (
          <Link to="/rooms/new" className="btn btn-primary">
            + {t("create")}
          </Link>
        ) : (
          <Link to="/signup" className="btn btn-primary">
            {t("joinCta")}
          </Link>
        )}
      </PageHero>
      <FriendsActivity activity={activity} />
      <nav className="tabs" aria-label={t("title")}>
        {visibleTabs.map((name) => (
          <Link key={name} to={tabLink(name)} className={tab === name ? "active" : undefined} data-tab={name}>
            {t(`tabs.${name}`)}
          </Link>
        ))}
      </nav>
      {error ? <p className="alert alert-error">{error}</p> : null}
      {demo ? (
        <div className="alert alert-info" role="status" data-testid="demo-loading">
          <p style={{ margin: "0 0 0.5rem" }}>{t("demoLoading", { done: demo.done, total: demo.total })}</p>
          <progress max={demo.total} value={demo.done} aria-label={t("demoLoadingLabel")} style={{ width: "100%" }} />
        </div>
      ) : null}
      {tab === "discover" && promoted.length ? (
        <section>
          <h2>{t("promotedTitle")}</h2>
          <div className="room-grid">
            {promoted.map((room) => (
              <RoomCard key={room.uuid} room={room} canFavorite={signedIn} />
            ))}
          </div>
        </section>
      ) : null}
      {tab === "communities" ? (
        communities.length ? (
          communities.map((c) => (
            <section key={c.id}>
              <h2>{c.name}</h2>
              <div className="room-grid">
                {c.rooms.map((room) => (
                  <RoomCard key={room.uuid} room={room} canFavorite={signedIn} />
                ))}
              </div>
            </section>
          ))
        ) : (
          <p className="empty">{t("empty.communities")}</p>
        )
      ) : (
        <section>
          {tab === "discover" ? <h2>{t("publicTitle")}</h2> : null}
          {rooms.length ? (
            <div className="room-grid" data-testid="room-list">
              {rooms.map((room) => (
                <RoomCard key={room.uuid} room={room} canFavorite={signedIn} />
              ))}
            </div>
          ) : tab === "discover" && demo ? null : (
            <p className="empty">{t(`empty.${tab}`)}</p>
          )}
          {total > (page + 1) * ROOM_PAGE ? (
            <div className="row" style={{ justifyContent: "center", marginTop: "1rem" }}>
              <Link className="btn" to={`/?tab=${tab}&page=${page + 1}`}>
                {t("more")}
              </Link>
            </div>
          ) : null}
        </section>
      )}
    </div>
  );
}
