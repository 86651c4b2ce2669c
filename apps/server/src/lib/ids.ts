/**
 * A UUID shape check: ids from a request are tested before a query, so a malformed one answers 404 (or is
 * ignored) instead of making PostgreSQL reject the query.
 */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
