import type { Database } from "bun:sqlite";
import type { AccountService } from "../auth/account.ts";
import type { CaptchaService } from "../auth/captcha.ts";
import type { LoginKey } from "../auth/login-key.ts";
import type { LoginThrottle } from "../auth/login-throttle.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { Config } from "../config.ts";
import type { EngineControl } from "../domain/engine.ts";
import type { CertificateService } from "../ops/certificate-service.ts";
import type { SysinfoSampler } from "../ops/sysinfo/index.ts";
import type { AdminStore } from "../store/admin.ts";
import type { BlacklistStore } from "../store/blacklists.ts";
import type { FavouriteStore } from "../store/favourites.ts";
import type { LogStore } from "../store/logs.ts";
import type { PortStore } from "../store/ports.ts";
import type { RatioStore } from "../store/ratios.ts";
import type { RemoteClientStore } from "../store/remote-clients.ts";
import type { SettingsStore } from "../store/settings.ts";

/** Everything a request handler may use, built once at start (appliance/app.ts). */
export interface AppContext {
  config: Config;
  version: string;
  startedAt: number;
  db: Database;
  ports: PortStore;
  settings: SettingsStore;
  blacklists: BlacklistStore;
  logs: LogStore;
  remotes: RemoteClientStore;
  ratios: RatioStore;
  favourites: FavouriteStore;
  certificates: CertificateService;
  admin: AdminStore;
  account: AccountService;
  tokens: TokenService;
  captcha: CaptchaService;
  throttle: LoginThrottle;
  loginKey: LoginKey;
  engine: EngineControl;
  sysinfo: SysinfoSampler;
  /** this instance's stable id, made at first start */
  uuid: string;
  /** Re-reads web port, TLS and route and restarts the HTTP server in-process (the engine keeps running). */
  restartWeb(reason: string): void;
}
