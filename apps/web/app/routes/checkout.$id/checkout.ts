/** Where a checkout ends: the shop, naming the checkout and how it ended (as Stripe's success and cancel URLs do). */
export const backToShop = (id: string, result: "success" | "cancelled") =>
  `/shop?checkout=${encodeURIComponent(id)}&result=${result}`;
