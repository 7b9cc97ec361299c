/**
 * Group control pins each remote's TLS certificate when it is registered (trust on first use): its
 * SHA-256 fingerprint, the certificate itself (PEM, the only certificate a later connection trusts)
 * and when the operator confirmed it. Rows registered before this have none: they stay listed as not
 * pinned, and are not called until the operator confirms the certificate the remote shows.
 */
export const remotePinSchema = `
ALTER TABLE remote_clients ADD COLUMN fingerprint TEXT NOT NULL DEFAULT '';
ALTER TABLE remote_clients ADD COLUMN certificate TEXT NOT NULL DEFAULT '';
ALTER TABLE remote_clients ADD COLUMN pinned_at TEXT NOT NULL DEFAULT '';
`;
