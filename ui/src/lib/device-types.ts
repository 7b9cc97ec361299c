/** Wire shapes of the port-inside calls: the engine's views (type-only imports, erased from the bundle). */
import type { DeviceView, WalletView } from "../../../appliance/domain/engine.ts";

export type {
  ConnectionEvent,
  IpView,
  PortLogEntry,
  PortStatsView,
} from "../../../appliance/domain/engine.ts";

export type Device = DeviceView;

export interface WalletRowView extends WalletView {
  collect?: boolean;
}
