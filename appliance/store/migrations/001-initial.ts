/** The configuration schema of spec §3. Singletons live as JSON values in `settings`. */
export const initialSchema = `
CREATE TABLE ports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  port INTEGER NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  currency TEXT NOT NULL,
  nc INTEGER NOT NULL DEFAULT 0,
  limit_connections INTEGER NOT NULL DEFAULT 65535,
  pool_address TEXT NOT NULL,
  connect_mode INTEGER NOT NULL DEFAULT 0,
  pool_address2 TEXT NOT NULL DEFAULT '',
  connect_mode2 INTEGER NOT NULL DEFAULT 0,
  mode INTEGER NOT NULL DEFAULT 0,
  proxy_addr TEXT NOT NULL DEFAULT '',
  proxy_device TEXT NOT NULL DEFAULT '',
  pattern_addr TEXT NOT NULL DEFAULT '',
  replace_addr TEXT NOT NULL DEFAULT '',
  protocol INTEGER NOT NULL DEFAULT 0,
  category TEXT NOT NULL,
  status INTEGER NOT NULL DEFAULT 1,
  setting TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE port_wallets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  server_id INTEGER NOT NULL REFERENCES ports(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  addr TEXT NOT NULL DEFAULT '',
  device TEXT NOT NULL DEFAULT '',
  pool_address TEXT NOT NULL DEFAULT '',
  pool_protocol INTEGER NOT NULL DEFAULT 0,
  ratio REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX port_wallets_server ON port_wallets(server_id, position);

-- per-wallet (worker '') and per-device (wallet '') fee ratio overrides (priority device > wallet > port)
CREATE TABLE ratio_overrides (
  port_id INTEGER NOT NULL REFERENCES ports(id) ON DELETE CASCADE,
  wallet TEXT NOT NULL DEFAULT '',
  worker TEXT NOT NULL DEFAULT '',
  ratio REAL NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (port_id, wallet, worker)
);

CREATE TABLE favourites (
  port_id INTEGER NOT NULL REFERENCES ports(id) ON DELETE CASCADE,
  wallet TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (port_id, wallet)
);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE blacklist (
  kind TEXT NOT NULL CHECK (kind IN ('ip', 'wallet')),
  value TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (kind, value)
);

CREATE TABLE remote_clients (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  address TEXT NOT NULL,
  token TEXT NOT NULL,
  remark TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE admin (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  username TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  default_password INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL
);

CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  address TEXT NOT NULL DEFAULT ''
);

CREATE TABLE logs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('operation', 'request', 'error', 'running')),
  at TEXT NOT NULL,
  address TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL
);
CREATE INDEX logs_kind ON logs(kind, id);

`;
