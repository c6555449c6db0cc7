import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { brandTitle } from "../../lib/brand.ts";
import { useRootData } from "../../root.tsx";
import { formatPrice } from "../shop/shop.ts";
import styles from "./checkout.module.css";
import { loadCheckout, payCheckout } from "./checkout.server.ts";
import { backToShop } from "./checkout.ts";

export const meta: MetaFunction = ({ matches }) => [{ title: brandTitle(matches, "Test checkout") }];
export const loader = ({ request, params }: LoaderFunctionArgs) => loadCheckout(request, params.id ?? "");
export const action = ({ request, params }: ActionFunctionArgs) => payCheckout(request, params.id ?? "");

type Checkout = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["checkout"]>;

function WhatIsBought({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation("shop");
  const lang = useRootData()?.lang ?? "en";
  return (
    <dl className={styles.summary} data-testid="checkout-summary">
      <div>
        <dt>{t("checkoutProduct")}</dt>
        <dd data-testid="checkout-product">{checkout.product.name}</dd>
      </div>
      <div>
        <dt>{checkout.mode === "payment" ? t("checkoutTokens") : t("checkoutPlan")}</dt>
        <dd data-testid="checkout-what">
          {checkout.mode === "payment"
            ? t("tokens", { count: checkout.tokens ?? 0 })
            : checkout.product.interval === "year"
              ? t("checkoutYearly", { level: checkout.product.level ?? "" })
              : t("checkoutMonthly", { level: checkout.product.level ?? "" })}
        </dd>
      </div>
      <div className={styles.total}>
        <dt>{t("checkoutPrice")}</dt>
        <dd data-testid="checkout-price">{formatPrice(checkout.amountCents, checkout.currency, lang)}</dd>
      </div>
    </dl>
  );
}

export default function CheckoutPage() {
  const { t } = useTranslation("shop");
  const { checkout, error } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const paying = useNavigation().state !== "idle";
  return (
    <div className={`stack ${styles.page}`}>
      <section className="hero">
        <div>
          <h1>{t("checkoutTitle")}</h1>
        </div>
      </section>
      <p className={`alert alert-info ${styles.notice}`} role="note" data-testid="test-payment">
        <strong>{t("testPayment")}</strong> {t("testPaymentHelp")}
      </p>
      {error || !checkout ? (
        <p className="alert alert-error" role="alert" data-testid="checkout-error">
          {error}
        </p>
      ) : (
        <section className={`card stack ${styles.card}`}>
          <WhatIsBought checkout={checkout} />
          {checkout.status === "open" ? (
            <Form method="post" className={styles.actions}>
              <button type="submit" className="btn btn-primary" disabled={paying} data-testid="pay">
                {paying ? t("paying") : t("pay")}
              </button>
              <Link to={backToShop(checkout.id, "cancelled")} className="btn btn-ghost" data-testid="cancel-checkout">
                {t("cancelCheckout")}
              </Link>
            </Form>
          ) : (
            <p className="muted" data-testid="checkout-closed">
              {checkout.status === "expired" ? t("checkoutExpired") : t("checkoutCompleted")}
            </p>
          )}
          {refused?.error ? (
            <p className="alert alert-error" role="alert">
              {refused.error}
            </p>
          ) : null}
        </section>
      )}
      <Link to="/shop" className="small">
        ← {t("backToShop")}
      </Link>
    </div>
  );
}
