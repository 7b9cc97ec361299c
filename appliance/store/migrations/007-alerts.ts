/**
 * Alerts (appliance/alerts/): the history of alert episodes with their state, and the outbox of
 * messages not yet delivered to a push channel, kept here so that a restart does not lose one.
 * A history row is one episode of one subject (a device, a port, the disk, the certificate): it is
 * firing until its condition clears. An outbox row is one rendered message for one channel.
 */
export const alertsSchema = `
CREATE TABLE alerts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  port_id INTEGER,
  state TEXT NOT NULL CHECK (state IN ('firing', 'resolved')),
  key TEXT NOT NULL,
  vars TEXT NOT NULL DEFAULT '{}',
  fired_at INTEGER NOT NULL,
  resolved_at INTEGER
);
CREATE INDEX alerts_open ON alerts (state, kind, subject);

CREATE TABLE alert_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL,
  message TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX alert_outbox_due ON alert_outbox (next_at);
`;
