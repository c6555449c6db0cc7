/**
 * The platform roles the edge checks by name (apps/edge/src/lib/auth.ts): ADMINS create, change and delete
 * communities (`/admin/communities`), STAFF also list them all and run every community and event.
 */
export const ADMIN_ROLES = ["superUser", "admin"];
export const STAFF_ROLES = [...ADMIN_ROLES, "staff"];
export const hasRole = (viewer: { roles: string[] } | null | undefined, roles: string[]) =>
  !!viewer && viewer.roles.some((r) => roles.includes(r));
