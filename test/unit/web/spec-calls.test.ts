import { expect, test } from "bun:test";
import { allRoutes } from "../../../appliance/web/api/index.ts";
import { Router } from "../../../appliance/web/router.ts";

/** Every call of spec §7 except the pool-node ones, as "METHOD path" with sample ids. */
const SPEC_CALLS = `
GET /api/ports
GET /api/port/1
POST /api/port/new
POST /api/port/1
POST /api/port/1/start
POST /api/port/1/stop
DELETE /api/port/1
GET /api/port/1/workers
GET /api/port/1/log
GET /api/port/1/ips
GET /api/port/1/g/workers
GET /api/port/1/g/wallet/list
GET /api/port/1/g/wallets/1
POST /api/port/1/wallet/collect
POST /api/port/1/worker/ratio
GET /api/wallet/1/worker/abc/ratio
GET /api/port/1/wallet/ratio
POST /api/port/1/wallet/ratio
DELETE /api/port/1/wallet/bc1q/ratio
POST /api/wallet/1
DELETE /api/wallet/1
POST /api/wallet/new
POST /api/ping
POST /api/ports/import
POST /api/failed/reset
POST /api/config/refresh
GET /api/currency/config
GET /api/_/captcha
POST /api/_/login
POST /api/_/logout
POST /api/_/changepassword
GET /api/route
POST /api/route
GET /api/mb/port
GET /api/web/tls
POST /api/web/tls/1
POST /api/web/port/restart
GET /api/kc/key
POST /api/kc/key
POST /api/kc/reset
GET /api/cert
POST /api/cert/upload
POST /api/cert/reset
GET /api/rms/config
POST /api/rms/config
GET /api/version
GET /api/local/version
GET /api/sys/starttime
GET /api/sysinfo
GET /api/sys/base/info
GET /api/sys/stat
GET /api/stat/worker/1
GET /api/stat/port/1
GET /api/stat/currency/BTC
GET /api/device/stats
GET /api/request/log
GET /api/error/log
GET /api/running/log
GET /api/u/i
GET /api/releases
GET /api/group/1/log
GET /api/worker/1/error/log
GET /api/pool/info/1
GET /api/currency/online/stat/BTC
GET /api/warning/setting
POST /api/warning/setting
GET /api/pump/t
POST /api/pump/t/10
GET /api/remote/token
POST /api/remote/token
GET /api/remote/list
POST /api/remote/new
POST /api/remote/1
DELETE /api/remote/1
GET /api/remote/q/1/GET/ports
POST /api/remote/refresh/token
GET /api/wallet/blacklist
POST /api/wallet/blacklist
DELETE /api/wallet/blacklist
GET /api/ip/blacklist
POST /api/ip/blacklist
DELETE /api/ip/blacklist
GET /api/ip/coming
GET /api/local/pool/endpoint
POST /api/local/pool/endpoint
`;

test("every call of spec §7 (except pool-node) has a route", () => {
  const router = new Router(allRoutes);
  const missing = SPEC_CALLS.trim()
    .split("\n")
    .filter((line) => {
      const [method, path] = line.split(" ") as [string, string];
      return router.match(method, path) === null;
    });
  expect(missing).toEqual([]);
});

/**
 * Spec §7's pool-node calls, as its list names them (it gives no method for most): each must have a
 * route under /api/poolnode/ for some method, even those answered with a refusal (the vendor account).
 */
const POOL_NODE_CALLS =
  "captcha/image captcha/check port/new project/apply project/info project/active project/unactive project/config " +
  "ports endpoints user/login send/mail send/user/mail index/port route ping/1 enable/index enable/index/1 " +
  "project/stats address/info rewards payouts update/address sync/info index/tls/1 index/tls webconfig profit " +
  "cert cert/upload cert/reset subaccount/configs subaccount/config extra/1 subaccount/rebate " +
  "withdrawal/can/apply withdrawal/submit withdrawal/logs pool/asset/selected pool/assets pool/asset/status " +
  "pool/asset pool/asset/reset";

test("every pool-node call of spec §7 has a route", () => {
  const router = new Router(allRoutes);
  const missing = POOL_NODE_CALLS.split(" ").filter((call) =>
    ["GET", "POST", "DELETE"].every((method) => router.match(method, `/api/poolnode/${call}`) === null),
  );
  expect(missing).toEqual([]);
});
