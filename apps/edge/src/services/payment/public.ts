/**
 * The payment service's front door: what other services may call (decision 0021). Nothing yet: no other service
 * calls the payment service, which reaches the merch service through merch/public.ts.
 */
export {};
