/**
 * The social service's front door: what other services may call (decision 0021). Nothing yet: no other service
 * calls the social service.
 */
export {};
