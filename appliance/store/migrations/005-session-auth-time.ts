/**
 * When a session last proved the password (login or re-authentication, web/handler.ts): changing
 * pools, wallets, ratios, the account, tokens, the route, the web port or the release needs it to
 * be recent. Sessions from before this migration have 0 and must re-authenticate once.
 */
export const sessionAuthTimeSchema = `
ALTER TABLE tokens ADD COLUMN auth_at INTEGER NOT NULL DEFAULT 0;
`;
