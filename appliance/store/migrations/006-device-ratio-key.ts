/**
 * Device ratio overrides keyed by what names a device across restarts: the miner's wallet and worker
 * name (`device` = 1), beside the wallet overrides (`device` = 0, worker ''). Before this a device row
 * held the registry's device id in `worker`; those ids are handed out per run in connection order, so
 * after a restart such a row would reach whichever device connected in that place, or none. They
 * cannot be traced back to a wallet and worker name and are dropped; wallet rows are kept as they are.
 */
export const deviceRatioKeySchema = `
CREATE TABLE ratio_overrides_keyed (
  port_id INTEGER NOT NULL REFERENCES ports(id) ON DELETE CASCADE,
  device INTEGER NOT NULL DEFAULT 0,
  wallet TEXT NOT NULL,
  worker TEXT NOT NULL DEFAULT '',
  ratio REAL NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (port_id, device, wallet, worker)
);
INSERT INTO ratio_overrides_keyed (port_id, device, wallet, worker, ratio, updated_at)
  SELECT port_id, 0, wallet, '', ratio, updated_at FROM ratio_overrides WHERE worker = '' AND wallet <> '';
DROP TABLE ratio_overrides;
ALTER TABLE ratio_overrides_keyed RENAME TO ratio_overrides;
`;
