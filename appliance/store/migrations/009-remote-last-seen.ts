/**
 * When each group-control remote last answered the fleet view, kept across restarts: after a restart
 * a remote that does not answer still shows when it was last seen, not a blank. "" = never.
 */
export const remoteLastSeenSchema = `
ALTER TABLE remote_clients ADD COLUMN last_seen TEXT NOT NULL DEFAULT '';
`;
