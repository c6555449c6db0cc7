/** Bundles and consumables are listed 32 a page (spec 9). */
export const SHOP_PAGE = 32;

/** A price in the currency's smallest unit, as a person reads it in their language. */
export function formatPrice(cents: number, currency: string, lang: string) {
  try {
    return new Intl.NumberFormat(lang, { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
