import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LocalTime } from "../../components/local-time.tsx";
import { PersonAvatar } from "../../components/person-card.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { useDirectMessageEvents } from "../../lib/direct-messages.tsx";
import { useRootData } from "../../root.tsx";
import { loadConversations } from "../messages.$userUuid/messages.server.ts";
import styles from "./messages.module.css";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Messages") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadConversations(request);

export default function MessagesScreen() {
  const { t, i18n } = useTranslation("messages");
  const { conversations, viewerUuid } = useLoaderData<typeof loader>();
  const root = useRootData();
  const apiUrl = root?.env.apiUrl ?? "";
  const images = root?.avatarImages ?? {};
  const { revalidate } = useRevalidator();
  // A message anywhere, or a read elsewhere, moves the list and its counts: load it again.
  useDirectMessageEvents(() => revalidate());

  return (
    <section className="stack">
      <div>
        <h1>{t("title")}</h1>
        <p className="muted">{t("subtitle")}</p>
      </div>
      {conversations.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <ul className={styles.conversations} data-testid="conversations">
          {conversations.map((c) => {
            const name = c.with?.nickname ?? t("gone");
            const last = c.lastMessage;
            return (
              <li key={c.id}>
                <Link
                  to={`/messages/${c.withUuid}`}
                  className={`${styles.conversationLink} ${c.unread > 0 ? styles.unread : ""}`}
                  data-testid="conversation"
                >
                  <PersonAvatar
                    person={c.with ?? { uuid: c.withUuid, nickname: "?", color: "#777", avatarId: "" }}
                    image={c.with ? images[c.with.avatarId] : null}
                    apiUrl={apiUrl}
                    size={40}
                  />
                  <span className={styles.summary}>
                    <span className={styles.name}>{name}</span>
                    {last ? (
                      <span className={styles.preview}>
                        {last.senderUuid === viewerUuid ? t("you", { text: last.text }) : last.text}
                      </span>
                    ) : null}
                  </span>
                  <span className={styles.meta}>
                    {last ? (
                      <span className={styles.time}>
                        <LocalTime iso={last.createdAt} lang={i18n.language} />
                      </span>
                    ) : null}
                    {c.unread > 0 ? (
                      <span className="nav-badge" data-testid="conversation-unread">
                        {t("unread", { count: c.unread })}
                      </span>
                    ) : null}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
