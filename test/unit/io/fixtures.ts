import {
  emptySetting,
  type Port,
  type PortSetting,
  type PortWallet,
} from "../../../appliance/domain/port.ts";

const setting = (port: number, extra: Partial<PortSetting> = {}): PortSetting => ({
  ...emptySetting(port),
  ...extra,
});

const wallet = (
  id: number,
  serverId: number,
  ratio: number,
  extra: Partial<PortWallet> = {},
): PortWallet => ({
  id,
  server_id: serverId,
  addr: `bc1qfee${id}`,
  device: `fee${id}`,
  pool_address: "btc.f2pool.com:1314",
  pool_protocol: 0,
  ratio,
  created_at: "2026-01-01 00:00:00",
  updated_at: "2026-01-01 00:00:00",
  ...extra,
});

function port(id: number, overrides: Partial<Port>): Port {
  const n = overrides.port ?? 3000 + id;
  return {
    id,
    port: n,
    name: `port ${id}`,
    currency: "BTC",
    nc: 0,
    limit_connections: 65535,
    pool_address: "btc.viabtc.io:3333",
    connect_mode: 0,
    pool_address2: "",
    connect_mode2: 0,
    mode: 0,
    proxy_addr: "",
    proxy_device: "",
    pattern_addr: "",
    replace_addr: "",
    protocol: 0,
    category: "sha256",
    status: 1,
    setting: setting(n),
    wallets: [],
    created_at: "2026-01-01 00:00:00",
    updated_at: "2026-01-01 00:00:00",
    ...overrides,
  };
}

/** Three ports covering the awkward cases: ten wallets, unicode and newlines, numeric-looking text. */
export const PORTS: Port[] = [
  port(1, { wallets: [wallet(1, 1, 0.02), wallet(2, 1, 0.0125, { pool_protocol: 1 })] }),
  port(2, {
    port: 14444,
    name: "矿场 A — ферма",
    currency: "LTC",
    category: "scrypt",
    mode: 2,
    proxy_addr: "ltc1qunified.doge1",
    proxy_device: "farmA",
    pattern_addr: "addr1\naddr2\naddr3",
    replace_addr: "ltc1qreplacement",
    protocol: 3,
    status: 0,
    connect_mode2: 1,
    pool_address2: "ltc.f2pool.com:8888",
    setting: setting(14444, { cp_name: 1, cp_mode: 1, sd: "*", st: 'rig"01', et_mode: 1 }),
    wallets: Array.from({ length: 10 }, (_, i) => wallet(10 + i, 2, (i + 1) / 100)),
  }),
  port(3, { name: "12345", currency: "NGINX", category: "nginx", pool_address: "10.0.0.5:443" }),
];
