/** Wire shapes of docs/api.md for ports (kept structural so the console does not import the server). */

export interface WireWallet {
  id?: number;
  server_id?: number;
  addr: string;
  device: string;
  pool_address: string;
  pool_protocol: number;
  ratio: number;
}

export interface WireSetting {
  cp_name: number;
  cp_mode: number;
  pu_mode: number;
  et_mode: number;
  lj: number;
  pth: number;
  cut: number;
  fr: number;
  op: number;
  sp: number;
  sd: string;
  st: string;
  ra: string;
  port: number;
}

export interface WirePort {
  id?: number;
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
  proxy_addr: string;
  proxy_device: string;
  pattern_addr: string;
  replace_addr: string;
  protocol: number;
  category: string;
  status?: number;
}

export type RunState = "active" | "closed" | "queuing";

export interface PortItem {
  server: WirePort & { id: number };
  wallets: WireWallet[];
  setting: WireSetting;
  stat: { online: number; delay: number };
  state: RunState;
}

export interface PortPayload extends WirePort {
  setting: WireSetting;
  wallets: WireWallet[];
}
