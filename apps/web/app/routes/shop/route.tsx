import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageHero } from "../../components/page-hero.tsx";
import { Pager } from "../../components/pager.tsx";
import { brandTitle } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import styles from "./shop.module.css";
import { loadShop, shopAction } from "./shop.server.ts";
import { formatPrice, SHOP_PAGE } from "./shop.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Token shop") }];
export const loader = ({ request }: LoaderFunctionArgs) => loadShop(request);
export const action = ({ request }: ActionFunctionArgs) => shopAction(request);

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
const absolute = (url: string, apiUrl: string) => (/^https?:/.test(url) ? url : `${apiUrl}${url}`);

function Balance() {
  const { t } = useTranslation("shop");
  const { signedIn, account, accountError } = useLoaderData<typeof loader>();
  const open = useFetcher<typeof action>();
  return (
    <section className={styles.balance}>
      <div>
        <p className="small muted">{t("balance")}</p>
        {account ? (
          <p className={styles.amount} data-testid="balance">
            <span className={styles.coin}>◆</span>
            {account.balance.toLocaleString()}
          </p>
        ) : (
          <p className={styles.amount}>—</p>
        )}
        {account?.held ? <p className="small muted">{t("held", { count: account.held })}</p> : null}
      </div>
      <div className="stack">
        {!signedIn ? (
          <Link to="/login?next=/shop" className="btn btn-primary">
            {t("signIn")}
          </Link>
        ) : !account ? (
          <open.Form method="post">
            <input type="hidden" name="intent" value="open-account" />
            <button type="submit" className="btn" data-testid="open-account" disabled={open.state !== "idle"}>
              {t("openAccount")}
            </button>
          </open.Form>
        ) : null}
        {accountError ? <p className="alert alert-error">{accountError}</p> : null}
        {open.state === "idle" && open.data?.error ? <p className="alert alert-error">{open.data.error}</p> : null}
        <Link to="/ranking" className="small">
          {t("seeRanking")} →
        </Link>
      </div>
    </section>
  );
}

function BundleCard({ bundle, signedIn }: { bundle: Data["bundles"][number]; signedIn: boolean }) {
  const { t } = useTranslation("shop");
  const root = useRootData();
  const navigation = useNavigation();
  const buying = navigation.state !== "idle" && navigation.formData?.get("productId") === bundle.productId;
  return (
    <li className={`tile ${styles.bundle}`} data-testid="bundle">
      <div className={`art-frame ${styles.bundleArt}`}>
        {bundle.thumbnail ? (
          <img src={absolute(bundle.thumbnail, root?.env.apiUrl ?? "")} alt="" />
        ) : (
          <span className={styles.stack}>◆</span>
        )}
      </div>
      <strong className={styles.tokens}>{t("tokens", { count: bundle.tokens })}</strong>
      <span className="small muted">{bundle.name}</span>
      <span className={styles.price}>
        {bundle.price ? formatPrice(bundle.price.cents, bundle.price.currency, root?.lang ?? "en") : t("notForSale")}
      </span>
      {signedIn && bundle.price ? (
        <Form method="post">
          <input type="hidden" name="intent" value="buy-bundle" />
          <input type="hidden" name="productId" value={bundle.productId} />
          <button type="submit" className="btn btn-primary btn-block" disabled={buying} data-testid="buy-bundle">
            {buying ? t("toCheckout") : t("buy")}
          </button>
        </Form>
      ) : null}
    </li>
  );
}

function ConsumableCard({ item }: { item: Data["consumables"][number] }) {
  const { t } = useTranslation("shop");
  const { account, rooms, signedIn } = useLoaderData<typeof loader>();
  const apiUrl = useRootData()?.env.apiUrl ?? "";
  const buy = useFetcher<typeof action>();
  const [room, setRoom] = useState(rooms[0]?.uuid ?? "");
  const done = buy.state === "idle" && buy.data?.ok;
  const error = buy.state === "idle" && buy.data?.error ? buy.data.error : null;
  const short = account ? account.balance < item.tokenCost : false;
  return (
    <li className={`${styles.consumable} ${item.displayType === "cover" ? styles.cover : ""}`} data-testid="consumable">
      <div className={`art-frame ${styles.consumableArt}`}>
        {item.fileUrl ? <img src={absolute(item.fileUrl, apiUrl)} alt="" /> : <span>✦</span>}
      </div>
      <div className={styles.consumableText}>
        <strong>{item.name}</strong>
        {item.description ? <span className="small muted">{item.description}</span> : null}
        <span className={styles.cost}>
          <span className={styles.coin}>◆</span> {item.tokenCost.toLocaleString()}
        </span>
      </div>
      {signedIn ? (
        <buy.Form method="post" className={`${styles.send} ${styles.wide}`}>
          <input type="hidden" name="intent" value="buy-consumable" />
          <input type="hidden" name="consumableId" value={item.id} />
          <input type="hidden" name="tokenCost" value={item.tokenCost} />
          <input type="hidden" name="accountId" value={account?.id ?? ""} />
          <input type="hidden" name="lastTokenBalance" value={account?.balance ?? ""} />
          <input type="hidden" name="balanceUnmodifiedSince" value={account?.updatedAt ?? ""} />
          {rooms.length ? (
            <select name="roomUuid" value={room} onChange={(e) => setRoom(e.target.value)} aria-label={t("room")}>
              {rooms.map((r) => (
                <option key={r.uuid} value={r.uuid}>
                  {r.name}
                </option>
              ))}
            </select>
          ) : (
            <span className="small muted">{t("noRooms")}</span>
          )}
          <button
            type="submit"
            className="btn btn-small"
            disabled={!rooms.length || short || buy.state !== "idle"}
            title={short ? t("notEnough") : undefined}
          >
            {t("send")}
          </button>
        </buy.Form>
      ) : null}
      {done ? <p className={`alert alert-ok small ${styles.wide}`}>{t("sent")}</p> : null}
      {error ? (
        <p className={`alert alert-error small ${styles.wide}`} role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}

export default function Shop() {
  const { t } = useTranslation("shop");
  const d = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <div className="stack">
      <PageHero title={t("title")} subtitle={t("subtitle")} />
      {d.checkout ? (
        <p
          className={`alert ${d.checkout.result === "cancelled" ? "alert-error" : "alert-ok"}`}
          role="status"
          data-testid="checkout-result"
        >
          {d.checkout.result === "cancelled" ? t("checkoutCancelled") : t("checkoutDone")}
        </p>
      ) : null}
      <Balance />
      {refused?.error ? (
        <p className="alert alert-error" role="alert" data-testid="shop-error">
          {refused.error}
        </p>
      ) : null}
      <section className="stack">
        <h2>{t("bundles")}</h2>
        {d.bundles.length ? (
          <ul className={`card-grid ${styles.bundles}`}>
            {d.bundles.map((b) => (
              <BundleCard key={b.id} bundle={b} signedIn={d.signedIn} />
            ))}
          </ul>
        ) : (
          <p className="empty">{t("noBundles")}</p>
        )}
        <Pager offset={d.bundleOffset} pageSize={SHOP_PAGE} total={d.bundleTotal} param="bundles" />
      </section>
      <section className="stack">
        <h2>{t("consumables")}</h2>
        <p className="muted small">{t("consumablesHelp")}</p>
        {d.consumables.length ? (
          <ul className={`card-grid ${styles.consumables}`}>
            {d.consumables.map((c) => (
              <ConsumableCard key={c.id} item={c} />
            ))}
          </ul>
        ) : (
          <p className="empty">{t("noConsumables")}</p>
        )}
        <Pager offset={d.consumableOffset} pageSize={SHOP_PAGE} total={d.consumableTotal} param="consumables" />
      </section>
    </div>
  );
}
