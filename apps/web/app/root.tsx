import { BRAND_NAMES, DEFAULT_BRAND } from "@booth/sdk/brand";
import { BOOTH_VERSION } from "@booth/sdk/version";
import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { Avatar } from "./components/avatar.tsx";
import { ErrorCard } from "./components/error-card.tsx";
import { NowPlayingBar } from "./components/now-playing-bar.tsx";
import {
  addTexts,
  createI18n,
  DEFAULT_LANGUAGE,
  isLoaded,
  LANGUAGES,
  type Language,
  languageCookie,
  loadLanguage,
} from "./i18n/index.ts";
import { languageOf } from "./i18n/language.server.ts";
import { brandName, THEME_COLORS } from "./lib/brand.ts";
import { DirectMessagesProvider, useUnreadMessages } from "./lib/direct-messages.tsx";
import { ACTIVITY_META, ActivityLanding, STORAGE_IN_MEMORY } from "./lib/discord-activity.tsx";
import { reportBoundaryError, SENTRY_ENVIRONMENT_META, SENTRY_META } from "./lib/error-reports.ts";
import { NAV_LINKS } from "./lib/nav.ts";
import { useNonce } from "./lib/nonce.ts";
import { usePageScripts } from "./lib/page-scripts.ts";
import { RoomSessionProvider } from "./lib/player/room-session.tsx";
import { useServiceWorker } from "./lib/pwa/register.ts";
import { rootData } from "./lib/root.server.ts";
import appCss from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appCss },
  // The .ico for browsers without SVG icons (and for whatever asks /favicon.ico by habit), the SVG for the rest.
  { rel: "icon", href: "/favicon.ico", sizes: "48x48" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Installable: the manifest (public/), the home-screen icon iOS asks for; the service worker registers in Layout.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = ({ matches }) => [
  { title: brandName(matches) },
  { name: "viewport", content: "width=device-width, initial-scale=1" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { lang, remember } = languageOf(request);
  const { body, setCookie } = await rootData(request);
  // The same address answers in another language for another browser (Accept-Language).
  const headers = new Headers({ vary: "Accept-Language, Cookie" });
  if (remember) headers.append("set-cookie", languageCookie(lang));
  if (setCookie) headers.append("set-cookie", setCookie);
  return data({ ...body, lang }, { headers });
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The root loader's data from any route: viewer, language, public addresses. */
export function useRootData() {
  return useRouteLoaderData<typeof loader>("root");
}

function LanguageSwitch({ current }: { current: Language }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <nav className="lang-switch" aria-label={t("language.label")}>
      {LANGUAGES.map((lang) => {
        const params = new URLSearchParams(location.search);
        params.set("lang", lang);
        return (
          <Link
            key={lang}
            to={`${location.pathname}?${params}`}
            className={lang === current ? "active" : undefined}
            hrefLang={lang}
            data-lang={lang}
          >
            {lang.toUpperCase()}
          </Link>
        );
      })}
    </nav>
  );
}

type NavItem = (typeof NAV_LINKS)[number];

function NavItemLink({ link }: { link: NavItem }) {
  const { t } = useTranslation();
  return (
    <NavLink to={link.to} end={link.to === "/"}>
      {t(link.label)}
      {link.to === "/messages" ? <UnreadBadge /> : null}
    </NavLink>
  );
}

/**
 * The less used sections behind "More": a <details>, so it opens from the keyboard and without scripts. With them it
 * closes as a menu does: on Escape (the keyboard back on "More"), on a click elsewhere or the keyboard moving on
 * past it, and once a page is chosen (the header stays while the pages change beneath it).
 */
function MoreLinks({ links }: { links: NavItem[] }) {
  const { t } = useTranslation();
  const { pathname, key } = useLocation();
  const ref = useRef<HTMLDetailsElement>(null);
  const here = links.some((l) => pathname === l.to || pathname.startsWith(`${l.to}/`));
  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (the same page again too) closes it
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [key]);
  useEffect(() => {
    const closeOutside = (event: PointerEvent) => {
      const details = ref.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      const details = ref.current;
      if (event.key !== "Escape" || !details?.open) return;
      details.open = false;
      if (details.contains(document.activeElement)) details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", closeOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("pointerdown", closeOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, []);
  if (links.length === 0) return null;
  return (
    <details
      className="nav-more"
      ref={ref}
      onBlur={(event) => {
        // The keyboard gone on past its links (not the window left for another).
        const to = event.relatedTarget;
        if (to && !event.currentTarget.contains(to)) event.currentTarget.open = false;
      }}
    >
      <summary className={here ? "active" : undefined}>
        {t("nav.more")}
        <span className="nav-more-caret" aria-hidden>
          ▾
        </span>
      </summary>
      <div className="nav-more-menu">
        {links.map((l) => (
          <NavItemLink key={l.to} link={l} />
        ))}
      </div>
    </details>
  );
}

function Header() {
  const { t } = useTranslation();
  const root = useRootData();
  const viewer = root?.viewer ?? null;
  const links = NAV_LINKS.filter((l) => !l.signedIn || viewer);
  return (
    <header className="site-header">
      <Link to="/" className="brand">
        <span className="brand-mark" aria-hidden>
          ◉
        </span>{" "}
        <span data-testid="brand-name">{BRAND_NAMES[root?.env.brand ?? DEFAULT_BRAND]}</span>
      </Link>
      <nav className="main-nav" aria-label={t("nav.label")}>
        <div className="nav-links">
          {links
            .filter((l) => !l.more)
            .map((l) => (
              <NavItemLink key={l.to} link={l} />
            ))}
        </div>
        <MoreLinks links={links.filter((l) => l.more)} />
      </nav>
      <div className="header-end">
        <LanguageSwitch current={root?.lang ?? DEFAULT_LANGUAGE} />
        {viewer ? (
          <div className="viewer" data-testid="viewer">
            <Avatar id={viewer.avatarId} name={viewer.nickname} color={viewer.color} size={28} />
            <span className="viewer-name" title={viewer.nickname}>
              {viewer.nickname}
            </span>
            <form method="post" action="/logout">
              <button type="submit" className="btn btn-ghost btn-small">
                {t("nav.logout")}
              </button>
            </form>
          </div>
        ) : (
          <div className="viewer">
            <Link to="/login" className="btn btn-ghost btn-small">
              {t("nav.login")}
            </Link>
            <Link to="/signup" className="btn btn-primary btn-small">
              {t("nav.signup")}
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}

/** The count of unread direct messages beside "Messages", live; nothing when none. */
function UnreadBadge() {
  const { t } = useTranslation("messages");
  const unread = useUnreadMessages();
  if (unread <= 0) return null;
  return (
    <span className="nav-badge" data-testid="unread-messages">
      <span aria-hidden data-testid="unread-count">
        {unread > 99 ? "99+" : unread}
      </span>
      <span className="visually-hidden">{t("unreadBadge", { count: unread })}</span>
    </span>
  );
}

function VerifyBanner() {
  const { t } = useTranslation();
  const root = useRootData();
  const location = useLocation();
  if (!root?.viewer || root.viewer.verified || location.pathname === "/verify-email") return null;
  return (
    <div className="banner" role="status">
      {t("verifyBanner")} <Link to="/verify-email">{t("verifyNow")}</Link>
    </div>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRootData();
  const lang = root?.lang ?? DEFAULT_LANGUAGE;
  const brand = root?.env.brand ?? DEFAULT_BRAND;
  const i18n = useMemo(() => createI18n(lang), [lang]);
  const scripts = usePageScripts();
  useServiceWorker();
  // A switch to a language whose texts are not here yet loads them into the page's i18next (English meanwhile). Not a
  // root clientLoader: that would make every navigation fetch the root's data apart from the page's.
  useEffect(() => {
    if (!isLoaded(lang))
      void loadLanguage(lang).then(
        () => addTexts(i18n, lang),
        () => undefined,
      );
  }, [i18n, lang]);
  return (
    <html lang={lang} data-brand={brand}>
      <head>
        <meta charSet="utf-8" />
        <meta name="theme-color" content={THEME_COLORS[brand]} />
        {/* The Discord Activity's settings, when Discord frames the page (entry.client.tsx, lib/discord-activity.ts). */}
        {root?.env.activity ? (
          <>
            <meta name={ACTIVITY_META} content={JSON.stringify(root.env.activity)} />
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Booth's own constant script, with the page's nonce. */}
            <script nonce={nonce} dangerouslySetInnerHTML={{ __html: STORAGE_IN_MEMORY }} />
          </>
        ) : null}
        {/* Where the page reports its errors, when the server names a Sentry project for it (entry.client.tsx). */}
        {root?.env.sentry ? (
          <>
            <meta name={SENTRY_META} content={root.env.sentry.dsn} />
            <meta name={SENTRY_ENVIRONMENT_META} content={root.env.sentry.environment} />
          </>
        ) : null}
        <Meta />
        <Links />
      </head>
      <body>
        <I18nextProvider i18n={i18n}>
          {/* The room a person is in lives here, above the routes: it plays on while they browse the app. */}
          <RoomSessionProvider
            partyUrl={root?.env.partyUrl ?? ""}
            apiUrl={root?.env.apiUrl ?? ""}
            viewerUuid={root?.viewer?.uuid ?? null}
            players={root?.env.players}
            brand={root?.env.brand}
          >
            <DirectMessagesProvider viewerUuid={root?.viewer?.uuid ?? null} initialUnread={root?.unreadMessages ?? 0}>
              <a className="skip-link" href="#main">
                {i18n.t("skipToContent")}
              </a>
              <Header />
              <VerifyBanner />
              <main className="site-main" id="main" tabIndex={-1}>
                {children}
              </main>
              <footer className="site-footer">
                {i18n.t("footer")}{" "}
                <span className="site-version" data-testid="booth-version">
                  {i18n.t("version", { version: BOOTH_VERSION })}
                </span>
              </footer>
              <NowPlayingBar />
              {root?.env.activity ? <ActivityLanding /> : null}
            </DirectMessagesProvider>
          </RoomSessionProvider>
        </I18nextProvider>
        {scripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => reportBoundaryError(error), [error]);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ErrorCard
      title={notFound ? "404" : t("error.generic")}
      message={notFound ? t("error.notFound") : isRouteErrorResponse(error) ? String(error.data) : t("error.generic")}
    />
  );
}
