/**
 * The port as the spec (§3) names its fields. Shared by the store, the HTTP API, the engine and the
 * console, so that one rule lives in one place.
 */

/** Port listening protocol codes (spec §4). KENC is SSL with et_mode 1, SOCKS5 is TCP with et_mode 2. */
export const ListenProtocol = { TCP: 0, SSL: 1, RMS: 2, TTS: 3, RMS2: 5, RMS3: 6 } as const;
export type ListenProtocolCode = (typeof ListenProtocol)[keyof typeof ListenProtocol];

/** Upstream pool protocol codes (connect_mode, connect_mode2, wallet pool_protocol). */
export const ConnectMode = { TCP: 0, SSL: 1, RMS2: 5, RMS3: 6 } as const;
export type ConnectModeCode = (typeof ConnectMode)[keyof typeof ConnectMode];

/** Connection mode (spec §4): Efficient is the default. */
export const ProxyMode = { EFFICIENT: 0, COMPATIBLE: 1, POOL: 2 } as const;
export type ProxyModeCode = (typeof ProxyMode)[keyof typeof ProxyMode];

/** Stored switch: 1 = the port is open (active), 0 = closed (disabled). */
export type PortStatusCode = 0 | 1;
/** What the console shows: the stored switch, or "queuing" while the engine applies a change. */
export type PortRunState = "active" | "closed" | "queuing";

/**
 * The setting object. The spec names the keys but not all meanings; the meanings we give them are
 * documented in docs/api.md and are the only ones the engine honours.
 */
export interface PortSetting {
  /** 1 = unify device name: every miner is presented upstream as `proxy_device`. */
  cp_name: number;
  /** 1 = unify wallet: every miner is presented upstream with wallet `proxy_addr`. */
  cp_mode: number;
  /** 1 = OKMiner optimization. */
  pu_mode: number;
  /** transport extension: 0 none, 1 KENC (with protocol SSL), 2 SOCKS5 (with protocol TCP). */
  et_mode: number;
  /** 1 = hashrate protection. */
  lj: number;
  /** Mallob (dynex) port, 0 = none. */
  pth: number;
  /** 1 = old-model optimization (no set_extranonce, no version-rolling tricks). */
  cut: number;
  /** 1 = force successful share return (the true verdict is still counted). */
  fr: number;
  /** reserved switches, stored and returned as given. */
  op: number;
  sp: number;
  /** names to replace, one per line, `*` matches all. */
  sd: string;
  /** replacement miner name. */
  st: string;
  /** core info (agent) replacement. */
  ra: string;
  /** the port number, mirrored from the port. */
  port: number;
  /**
   * RFC 1929 username and password a SOCKS5 port (et_mode 2) asks of its miners; both empty (or
   * absent, as in ports stored before they existed): no authentication. docs/transports.md.
   */
  socks_user?: string;
  socks_password?: string;
}

export interface PortWallet {
  id: number;
  server_id: number;
  /** address or sub-account; dual-mined coins use address.address */
  addr: string;
  /** fee name: the device name used for the diverted work */
  device: string;
  pool_address: string;
  pool_protocol: number;
  /** 0 to 1 */
  ratio: number;
  created_at: string;
  updated_at: string;
}

export interface PortStat {
  online: number;
  /** average submit → pool answer latency in ms, 0 when unknown */
  delay: number;
}

export interface Port {
  id: number;
  port: number;
  name: string;
  currency: string;
  nc: number;
  limit_connections: number;
  pool_address: string;
  connect_mode: number;
  pool_address2: string;
  connect_mode2: number;
  mode: number;
  /** unified wallet / custom display address shown upstream */
  proxy_addr: string;
  /** unified device name */
  proxy_device: string;
  /** wallets to replace, one per line */
  pattern_addr: string;
  /** replacement wallet */
  replace_addr: string;
  protocol: number;
  category: string;
  status: PortStatusCode;
  setting: PortSetting;
  wallets: PortWallet[];
  created_at: string;
  updated_at: string;
}

/** The port's own fields without id, setting, wallets and timestamps: the stored columns and the export's. */
export const PORT_SCALAR_FIELDS = [
  "port",
  "name",
  "currency",
  "nc",
  "limit_connections",
  "pool_address",
  "connect_mode",
  "pool_address2",
  "connect_mode2",
  "mode",
  "proxy_addr",
  "proxy_device",
  "pattern_addr",
  "replace_addr",
  "protocol",
  "category",
  "status",
] as const satisfies readonly (keyof Port)[];

/** A setting object with every switch off: the default of a new port. */
export function emptySetting(port = 0): Required<PortSetting> {
  return {
    cp_name: 0,
    cp_mode: 0,
    pu_mode: 0,
    et_mode: 0,
    lj: 0,
    pth: 0,
    cut: 0,
    fr: 0,
    op: 0,
    sp: 0,
    sd: "",
    st: "",
    ra: "",
    port,
    socks_user: "",
    socks_password: "",
  };
}

export const MAX_FEE_WALLETS = 10;
export const DEFAULT_LIMIT_CONNECTIONS = 65535;
export const PORT_MIN = 1;
export const PORT_MAX = 65534;

/**
 * A fee ratio set for one miner wallet (worker null: every device of the wallet) or one device (the
 * wallet and worker name it logs in with, which outlive a restart), replacing the port's ratio for
 * it (spec §4: device > wallet > port).
 */
export interface RatioOverride {
  wallet: string;
  worker: string | null;
  /** 0 to 1 */
  ratio: number;
}
