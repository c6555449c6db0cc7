import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  type ClientLoaderFunctionArgs,
  type FetcherWithComponents,
  Link,
  useFetcher,
  useLoaderData,
  useLocation,
} from "@remix-run/react";
import { type ButtonHTMLAttributes, type ComponentProps, useState } from "react";
import { useTranslation } from "react-i18next";
import { CrateCard, crateGridClass } from "../../components/crate-card.tsx";
import { Pager } from "../../components/pager.tsx";
import { PersonAvatar, PersonCard, peopleGridClass } from "../../components/person-card.tsx";
import { forgetting, freshOrLoad } from "../../components/stale-cache.ts";
import { brandName } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import styles from "./profile.module.css";
import { loadProfile, socialAction } from "./profile.server.ts";
import { PEOPLE_PAGE, PROFILE_STALE_MS, PROFILE_TABS } from "./profile.ts";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  { title: `${brandName(matches)} · ${data?.profile.nickname ?? "Profile"}` },
];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadProfile(request, params.id);
export const action = ({ request, params }: ActionFunctionArgs) => socialAction(request, params.id);
export const clientLoader = ({ request, serverLoader }: ClientLoaderFunctionArgs) =>
  freshOrLoad(request.url, PROFILE_STALE_MS, () => serverLoader<typeof loader>());
// Following or befriending changes both people's pages.
export const clientAction = forgetting("/users");

/** One button in a form of its own that posts its `intent` (and the friend invitation it answers, if any). */
function IntentButton({
  Form,
  action,
  intent,
  invitationId,
  children,
  ...button
}: {
  Form: FetcherWithComponents<unknown>["Form"];
  /** The page whose action takes it, when not this one. */
  action?: string;
  intent: string;
  invitationId?: string;
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      {invitationId === undefined ? null : <input type="hidden" name="invitationId" value={invitationId} />}
      <button type="submit" {...button}>
        {children}
      </button>
    </Form>
  );
}

function SocialButtons() {
  const { t } = useTranslation("profile");
  const { relation, profile } = useLoaderData<typeof loader>();
  const follow = useFetcher<typeof action>();
  const friend = useFetcher<typeof action>();
  if (!relation) return null;
  if (relation.blocked) return <BlockButton blocked />;
  // Shown as done at once; the page's data follows when the edge has answered.
  const asked = follow.formData?.get("intent");
  const following = asked ? asked === "follow" : relation.following;
  const friendIntent = friend.formData?.get("intent");
  const error =
    (follow.state === "idle" && follow.data?.error) || (friend.state === "idle" && friend.data?.error) || null;
  return (
    <div className="stack">
      <div className="row">
        <IntentButton
          Form={follow.Form}
          intent={following ? "unfollow" : "follow"}
          className={`btn ${following ? "" : "btn-primary"}`}
          data-testid="follow"
          data-following={following ? "true" : "false"}
        >
          {following ? `✓ ${t("following")}` : `+ ${t("follow")}`}
        </IntentButton>
        {relation.friends ? (
          <>
            <IntentButton Form={friend.Form} intent="unfriend" className="btn btn-ghost" title={t("unfriend")}>
              ♥ {t("friends")}
            </IntentButton>
            <Link to={`/messages/${profile.uuid}`} className="btn btn-primary" data-testid="message">
              {t("messages:message")}
            </Link>
          </>
        ) : relation.invitationReceived ? (
          <>
            <IntentButton
              Form={friend.Form}
              intent="accept"
              invitationId={relation.invitationReceived.id}
              className="btn"
            >
              {t("accept")}
            </IntentButton>
            <IntentButton
              Form={friend.Form}
              intent="reject"
              invitationId={relation.invitationReceived.id}
              className="btn btn-ghost"
            >
              {t("reject")}
            </IntentButton>
          </>
        ) : relation.invitationSent || friendIntent === "invite" ? (
          <IntentButton
            Form={friend.Form}
            intent="withdraw"
            invitationId={relation.invitationSent?.id ?? ""}
            className="btn btn-ghost"
            data-testid="invite"
            title={t("withdraw")}
          >
            {t("invited")}
          </IntentButton>
        ) : (
          <IntentButton Form={friend.Form} intent="invite" className="btn" data-testid="invite">
            + {t("addFriend")}
          </IntentButton>
        )}
      </div>
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <BlockButton blocked={false} />
    </div>
  );
}

/**
 * Block (asked twice: it ends following and friendship both ways) or unblock; the page shows the edge's answer and,
 * when it refuses, its words.
 */
function BlockButton({ blocked }: { blocked: boolean }) {
  const { t } = useTranslation("profile");
  const { profile } = useLoaderData<typeof loader>();
  const block = useFetcher<typeof action>();
  const [asking, setAsking] = useState(false);
  const error = block.state === "idle" ? block.data?.error : null;
  const busy = block.state !== "idle";
  return (
    <div className="stack" data-testid="block-controls">
      {blocked ? (
        <>
          <p className="small muted" data-testid="blocked-note">
            {t("blockedNote", { name: profile.nickname })}
          </p>
          <IntentButton Form={block.Form} intent="unblock" className="btn" data-testid="unblock" disabled={busy}>
            {t("unblock")}
          </IntentButton>
        </>
      ) : asking ? (
        <block.Form method="post" className="stack" onSubmit={() => setAsking(false)}>
          <p className="small" role="alert">
            {t("blockConfirm", { name: profile.nickname })}
          </p>
          <input type="hidden" name="intent" value="block" />
          <div className="row">
            <button type="submit" className="btn btn-danger" data-testid="confirm-block" disabled={busy}>
              {t("block")}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setAsking(false)}>
              {t("cancel")}
            </button>
          </div>
        </block.Form>
      ) : (
        <button type="button" className="btn btn-ghost btn-small" data-testid="block" onClick={() => setAsking(true)}>
          {t("block")}
        </button>
      )}
      {error ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The answers to a friend invitation: its receiver accepts or rejects it, its sender withdraws it. */
const ANSWERS = {
  accept: { className: "btn-primary", testId: "accept-invitation" },
  reject: { className: "btn-ghost", testId: "reject-invitation" },
  withdraw: { className: "btn-ghost", testId: undefined },
} as const;

/** Friend invitations received or sent: the other person, and this side's answers (posted to their page). */
function InvitationGroup({
  title,
  invitations,
  answers,
  Form,
}: {
  title: string;
  invitations: { id: string; other: string; person?: ComponentProps<typeof PersonCard>["person"] | null }[];
  answers: (keyof typeof ANSWERS)[];
  Form: FetcherWithComponents<unknown>["Form"];
}) {
  const { t } = useTranslation("profile");
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  if (!invitations.length) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul className={peopleGridClass}>
        {invitations.map((i) =>
          i.person ? (
            <PersonCard key={i.id} person={i.person} apiUrl={apiUrl}>
              {answers.map((intent) => (
                <IntentButton
                  key={intent}
                  Form={Form}
                  action={`/users/${i.other}`}
                  intent={intent}
                  invitationId={i.id}
                  className={`btn btn-small ${ANSWERS[intent].className}`}
                  data-testid={ANSWERS[intent].testId}
                >
                  {t(intent)}
                </IntentButton>
              ))}
            </PersonCard>
          ) : null,
        )}
      </ul>
    </>
  );
}

function Invitations() {
  const { t } = useTranslation("profile");
  const { invitations } = useLoaderData<typeof loader>();
  const handle = useFetcher<typeof action>();
  if (!invitations.received.length && !invitations.sent.length) return null;
  return (
    <div className="stack" data-testid="invitations">
      <InvitationGroup
        title={t("invitationsReceived")}
        invitations={invitations.received.map((i) => ({ id: i.id, other: i.fromUuid, person: i.from }))}
        answers={["accept", "reject"]}
        Form={handle.Form}
      />
      <InvitationGroup
        title={t("invitationsSent")}
        invitations={invitations.sent.map((i) => ({ id: i.id, other: i.toUuid, person: i.to }))}
        answers={["withdraw"]}
        Form={handle.Form}
      />
      {handle.state === "idle" && handle.data?.error ? <p className="alert alert-error">{handle.data.error}</p> : null}
    </div>
  );
}

export default function ProfilePage() {
  const { t } = useTranslation("profile");
  const d = useLoaderData<typeof loader>();
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const location = useLocation();
  const { profile } = d;
  const tabLink = (tab: string) => `${location.pathname}?tab=${tab}`;
  const tabs = PROFILE_TABS.filter((tab) => d.signedIn || tab === "followers" || tab === "following");
  const emptyKey =
    d.tab === "followers"
      ? "noFollowers"
      : d.tab === "following"
        ? "noFollowing"
        : d.tab === "friends"
          ? "noFriends"
          : "noCrates";
  return (
    <div className="stack">
      <section className={styles.banner} style={{ ["--person" as string]: profile.color }}>
        <PersonAvatar person={profile} image={d.avatarImage} apiUrl={apiUrl} size={120} />
        <div className={styles.identity}>
          <h1>
            <span data-testid="profile-name">{profile.nickname}</span>
            {profile.verifiedAt ? (
              <span className={styles.verified} title={t("verified")}>
                ✓
              </span>
            ) : null}
          </h1>
          {profile.displayPronouns && profile.pronoun ? <p className="muted small">{profile.pronoun}</p> : null}
          {profile.bio ? (
            <p className={styles.bio} data-testid="profile-bio">
              {profile.bio}
            </p>
          ) : d.own ? (
            <p className="muted">{t("noBio")}</p>
          ) : null}
          <div className={styles.stats}>
            <Link to={tabLink("followers")}>
              <strong data-testid="fans-count">{d.counts.fans}</strong> {t("followersCount", { count: d.counts.fans })}
            </Link>
            <Link to={tabLink("following")}>
              <strong>{d.counts.following}</strong> {t("followingCount")}
            </Link>
            {d.season ? (
              <Link to="/ranking">
                <strong>{d.season.points}</strong> {t("points", { season: d.season.name })}
                {d.season.rank ? ` · #${d.season.rank}` : ""}
              </Link>
            ) : null}
            {profile.badges.map((b) => (
              <span key={b} className="pill">
                {b}
              </span>
            ))}
          </div>
          {profile.songOfTheWeek ? (
            <p className="small muted">
              ♪ {t("songOfTheWeek")}: {profile.songOfTheWeek}
            </p>
          ) : null}
        </div>
        <div className={styles.side}>
          {d.own ? (
            <>
              <Link to="/profile/edit" className="btn btn-primary" data-testid="edit-profile">
                ✎ {t("edit")}
              </Link>
              <Link to="/avatars" className="btn" data-testid="avatars-link">
                {t("avatars.nav")}
              </Link>
            </>
          ) : d.signedIn ? (
            <SocialButtons />
          ) : (
            <Link to="/login" className="btn btn-primary">
              {t("signInToFollow")}
            </Link>
          )}
        </div>
      </section>
      <nav className="tabs" aria-label={profile.nickname}>
        {tabs.map((tab) => (
          <Link key={tab} to={tabLink(tab)} className={d.tab === tab ? "active" : undefined} data-tab={tab}>
            {t(`tabs.${tab}`)}
          </Link>
        ))}
      </nav>
      <section className="card stack">
        {d.listError ? <p className="alert alert-error">{d.listError}</p> : null}
        {d.tab === "friends" && d.own ? <Invitations /> : null}
        {d.tab === "crates" ? (
          d.crates.length ? (
            <div className={crateGridClass}>
              {d.crates.map((c) => (
                <CrateCard key={c.crateUuid} crate={c} apiUrl={apiUrl} to={`/crates/${c.crateUuid}`} />
              ))}
            </div>
          ) : (
            <p className="empty">{t("noCrates")}</p>
          )
        ) : d.people.length ? (
          <>
            {d.tab === "friends" && d.own ? <h3>{t("tabs.friends")}</h3> : null}
            <ul className={peopleGridClass} data-testid="people">
              {d.people.map((p) => (
                <PersonCard key={p.uuid} person={p} apiUrl={apiUrl} />
              ))}
            </ul>
          </>
        ) : (
          <p className="empty">{t(emptyKey, { name: profile.nickname })}</p>
        )}
        <Pager offset={d.skip} pageSize={d.tab === "crates" ? 32 : PEOPLE_PAGE} total={d.total} param="skip" />
      </section>
    </div>
  );
}
