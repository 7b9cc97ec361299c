import type { Route } from "../router.ts";
import { alertRoutes } from "./alerts.ts";
import { auditRoutes } from "./audit.ts";
import { authRoutes } from "./auth.ts";
import { allBlacklistRoutes } from "./blacklists.ts";
import { catalogRoutes } from "./catalog.ts";
import { feeAuditRoutes } from "./fee-audit.ts";
import { historyRoutes } from "./history.ts";
import { liveRoutes } from "./live.ts";
import { passwordChangeRoutes } from "./password-change.ts";
import { poolNodeRoutes } from "./poolnode.ts";
import { poolNodeAssetRoutes } from "./poolnode-assets.ts";
import { poolNodeDaemonRoutes } from "./poolnode-daemon.ts";
import { poolNodePageRoutes } from "./poolnode-page.ts";
import { poolNodePortRoutes } from "./poolnode-ports.ts";
import { poolNodeVendorRoutes } from "./poolnode-vendor.ts";
import { portRoutes } from "./ports.ts";
import { preferenceRoutes } from "./preferences.ts";
import { ratioRoutes } from "./ratios.ts";
import { remoteRoutes } from "./remote.ts";
import { rmsTunnelRoutes } from "./rms-tunnels.ts";
import { rmsUpstreamRoutes } from "./rms-upstream.ts";
import { securityRoutes } from "./security.ts";
import { metricsRoute, metricsTokenRoutes, systemRoutes } from "./system.ts";
import { transferRoutes } from "./transfer.ts";
import { updateRoutes } from "./updates.ts";
import { walletRoutes } from "./wallets.ts";

/** Every route of the API, one module per area of spec §7. */
export const allRoutes: Route[] = [
  ...authRoutes,
  ...passwordChangeRoutes,
  ...portRoutes,
  ...transferRoutes,
  ...walletRoutes,
  ...ratioRoutes,
  ...liveRoutes,
  ...historyRoutes,
  ...feeAuditRoutes,
  ...catalogRoutes,
  ...securityRoutes,
  ...preferenceRoutes,
  ...rmsTunnelRoutes,
  ...rmsUpstreamRoutes,
  ...alertRoutes,
  ...allBlacklistRoutes,
  ...remoteRoutes,
  ...systemRoutes,
  metricsRoute,
  ...metricsTokenRoutes,
  ...updateRoutes,
  ...auditRoutes,
  ...poolNodeRoutes,
  ...poolNodePortRoutes,
  ...poolNodeDaemonRoutes,
  ...poolNodePageRoutes,
  ...poolNodeAssetRoutes,
  ...poolNodeVendorRoutes,
];
