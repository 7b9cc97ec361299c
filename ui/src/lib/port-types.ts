/**
 * Wire shapes of docs/api.md for ports: the server's own domain types (type-only imports, erased
 * from the bundle), so the console and the API cannot drift apart.
 */
import type {
  Port,
  PortRunState,
  PortSetting,
  PortStat,
  PortWallet,
} from "../../../appliance/domain/port.ts";

export type WireWallet = Pick<PortWallet, "addr" | "device" | "pool_address" | "pool_protocol" | "ratio"> &
  Partial<Pick<PortWallet, "id" | "server_id">>;

export type WireSetting = PortSetting;

export type WirePort = Omit<Port, "id" | "status" | "setting" | "wallets" | "created_at" | "updated_at"> & {
  id?: number;
  status?: number;
};

export type RunState = PortRunState;

export interface PortItem {
  server: WirePort & { id: number };
  wallets: WireWallet[];
  setting: WireSetting;
  stat: PortStat;
  state: RunState;
}

export interface PortPayload extends WirePort {
  setting: WireSetting;
  wallets: WireWallet[];
}
