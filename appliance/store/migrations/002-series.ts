/** Statistics roll-ups written by appliance/stats/series-store.ts: minutes for 24 h, hours for 30 days. */
export const seriesSchema = `
CREATE TABLE series_minute (
  port_id INTEGER NOT NULL, device TEXT NOT NULL, minute INTEGER NOT NULL,
  work REAL NOT NULL, fee_work REAL NOT NULL, valid INTEGER NOT NULL, invalid INTEGER NOT NULL,
  stale INTEGER NOT NULL, PRIMARY KEY (port_id, device, minute)) WITHOUT ROWID;
CREATE TABLE series_hour (
  port_id INTEGER NOT NULL, device TEXT NOT NULL, hour INTEGER NOT NULL,
  work REAL NOT NULL, fee_work REAL NOT NULL, valid INTEGER NOT NULL, invalid INTEGER NOT NULL,
  stale INTEGER NOT NULL, PRIMARY KEY (port_id, device, hour)) WITHOUT ROWID;
CREATE INDEX series_minute_by_time ON series_minute (minute);
CREATE INDEX series_hour_by_time ON series_hour (hour);
`;
