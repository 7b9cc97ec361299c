import type { Database } from "bun:sqlite";
import pkg from "../package.json" with { type: "json" };
import type { AlertService } from "./alerts/alert-service.ts";
import { AccountService } from "./auth/account.ts";
import { CaptchaService } from "./auth/captcha.ts";
import { randomCaptchaCode } from "./auth/captcha-image.ts";
import { LoginKey } from "./auth/login-key.ts";
import { LoginThrottle } from "./auth/login-throttle.ts";
import { MachineTokens } from "./auth/machine-tokens.ts";
import { ReauthChallenges } from "./auth/reauth-challenge.ts";
import { TokenService } from "./auth/tokens.ts";
import type { Config } from "./config.ts";
import type { EngineControl } from "./domain/engine.ts";
import { CertificateService } from "./ops/certificate-service.ts";
import { FleetMonitor } from "./ops/group/fleet-monitor.ts";
import { SysinfoSampler } from "./ops/sysinfo/index.ts";
import { PoolNodeService } from "./poolnode/service.ts";
import { PublicPage } from "./poolnode/web/public-page.ts";
import type { SeriesStore } from "./stats/series-store.ts";
import { AdminStore } from "./store/admin.ts";
import { AuditLog } from "./store/audit-log.ts";
import { BlacklistStore } from "./store/blacklists.ts";
import { openDatabase, openLogConnection } from "./store/db.ts";
import { FavouriteStore } from "./store/favourites.ts";
import { LogStore } from "./store/logs.ts";
import { PoolGroupPortStore } from "./store/poolnode-group-ports.ts";
import { PoolLedgerStore } from "./store/poolnode-ledger.ts";
import { PoolPortStore } from "./store/poolnode-ports.ts";
import { PoolSubaccountStore } from "./store/poolnode-subaccounts.ts";
import { PortStore } from "./store/ports.ts";
import { RatioStore } from "./store/ratios.ts";
import { RemoteClientStore } from "./store/remote-clients.ts";
import { SettingsStore } from "./store/settings.ts";
import type { AppContext } from "./web/app-context.ts";

export const VERSION: string = pkg.version;

/** The parts of the appliance that exist before the engine: the database and its services. */
export interface Foundation {
  db: Database;
  ports: PortStore;
  settings: SettingsStore;
  blacklists: BlacklistStore;
  logs: LogStore;
  remotes: RemoteClientStore;
  /** pool-node ports pushed to group members (on the node) and made by a node (on a member) */
  groupPorts: PoolGroupPortStore;
  ratios: RatioStore;
  favourites: FavouriteStore;
  admin: AdminStore;
  account: AccountService;
  /** the group-control and metrics tokens */
  machines: MachineTokens;
  certificates: CertificateService;
  /** the append-only, hash-chained log of configuration changes */
  audit: AuditLog;
  /** the time in ms; tests move it instead of waiting (re-authentication, audit pruning) */
  clock: () => number;
}

export function openFoundation(config: Config, clock: () => number = Date.now): Foundation {
  const db = openDatabase(config.dataDir);
  const admin = new AdminStore(db);
  const settings = new SettingsStore(db);
  const machines = new MachineTokens(settings);
  return {
    db,
    ports: new PortStore(db),
    settings,
    blacklists: new BlacklistStore(db),
    logs: new LogStore(openLogConnection(config.dataDir)),
    remotes: new RemoteClientStore(db),
    groupPorts: new PoolGroupPortStore(db),
    ratios: new RatioStore(db),
    favourites: new FavouriteStore(db),
    admin,
    account: new AccountService(admin, config.dataDir, machines),
    machines,
    certificates: new CertificateService(settings),
    audit: new AuditLog(db, clock),
    clock,
  };
}

export function buildContext(
  config: Config,
  f: Foundation,
  engine: EngineControl,
  series: SeriesStore,
  web: {
    restart(reason: string): void;
    port(): number;
    httpsPort(): number;
    certificateChanged(): Promise<void>;
  },
  alerts: AlertService,
): AppContext {
  const log = (level: "running" | "error", message: string) => f.logs.add(level, message);
  const poolNode = new PoolNodeService(
    f.settings,
    new PoolLedgerStore(f.db),
    new PoolSubaccountStore(f.db),
    new PoolPortStore(f.db),
    config.host,
    log,
  );
  return {
    ...f,
    config,
    version: VERSION,
    startedAt: Date.now(),
    tokens: new TokenService(f.admin, f.clock),
    captcha: new CaptchaService(() => randomCaptchaCode(), config.testCaptcha, f.clock),
    throttle: new LoginThrottle(f.clock),
    loginKey: new LoginKey(f.settings),
    reauthChallenges: new ReauthChallenges(f.clock),
    passwordChallenges: new ReauthChallenges(f.clock),
    engine,
    alerts,
    series,
    sysinfo: new SysinfoSampler({ diskPath: config.dataDir }),
    uuid: instanceUuid(f.settings),
    restartWeb: (reason) => web.restart(reason),
    webPort: () => web.port(),
    httpsPort: () => web.httpsPort(),
    certificateChanged: () => web.certificateChanged(),
    fleet: new FleetMonitor(f.remotes, f.audit),
    poolNode,
    poolPage: new PublicPage(f.settings, poolNode, () => f.certificates.current(), config.host, log),
  };
}

function instanceUuid(settings: SettingsStore): string {
  let id = settings.get<string>("uuid", "");
  if (!id) {
    id = crypto.randomUUID();
    settings.set("uuid", id);
  }
  return id;
}
