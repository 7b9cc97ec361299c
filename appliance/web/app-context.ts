import type { AlertService } from "../alerts/alert-service.ts";
import type { Foundation } from "../app.ts";
import type { CaptchaService } from "../auth/captcha.ts";
import type { LoginKey } from "../auth/login-key.ts";
import type { LoginThrottle } from "../auth/login-throttle.ts";
import type { ReauthChallenges } from "../auth/reauth-challenge.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { Config } from "../config.ts";
import type { EngineControl } from "../domain/engine.ts";
import type { FleetMonitor } from "../ops/group/fleet-monitor.ts";
import type { SysinfoSampler } from "../ops/sysinfo/index.ts";
import type { PoolNodeService } from "../poolnode/service.ts";
import type { PublicPage } from "../poolnode/web/public-page.ts";
import type { SeriesStore } from "../stats/series-store.ts";

/** Everything a request handler may use: the stores and services of the foundation, and the rest, built once at start. */
export interface AppContext extends Foundation {
  config: Config;
  version: string;
  startedAt: number;
  tokens: TokenService;
  captcha: CaptchaService;
  throttle: LoginThrottle;
  loginKey: LoginKey;
  /** single-use challenges the re-authentication password is encrypted with */
  reauthChallenges: ReauthChallenges;
  /** single-use challenges the password change's three passwords are encrypted with */
  passwordChallenges: ReauthChallenges;
  engine: EngineControl;
  /** alert rules evaluated on a timer, their history and the push channels' queue */
  alerts: AlertService;
  /** persisted minute and hour statistics */
  series: SeriesStore;
  sysinfo: SysinfoSampler;
  /** this instance's stable id, made at first start */
  uuid: string;
  /** The port the console answers on right now. */
  webPort(): number;
  /** The port the console answers HTTPS on right now (the web port itself when HTTPS is on); 0: none. */
  httpsPort(): number;
  /**
   * Restarts the listeners that serve TLS with the stored certificate (plain HTTP stays up) and hands
   * it to the engine, for the SSL and TTS ports it starts after; resolves once the engine has it.
   */
  certificateChanged(): Promise<void>;
  /** group control's remotes, read in the background (the fleet view) */
  fleet: FleetMonitor;
  /** the pool-node mode: its project and, when activated, the running pool */
  poolNode: PoolNodeService;
  /** the pool node's public page for its miners (its own listener) */
  poolPage: PublicPage;
  /** Re-reads web port, TLS and route and restarts the HTTP server in-process (the engine keeps running). */
  restartWeb(reason: string): void;
}
