import { expect, test } from "bun:test";
import { allRoutes } from "../../../appliance/web/api/index.ts";

/** design.md Security: the changes that ask for the password again, and only those. */
const FLAGGED = `
POST /api/port/new
POST /api/port/:id
POST /api/port/:id/copy
POST /api/ports/import
POST /api/wallet/new
POST /api/wallet/:id
DELETE /api/wallet/:id
POST /api/port/:id/wallets
POST /api/port/:id/wallet/ratio
DELETE /api/port/:id/wallet/:wallet/ratio
POST /api/port/:id/worker/ratio
POST /api/_/changepassword
GET /api/remote/token
POST /api/remote/token
POST /api/remote/refresh/token
POST /api/remote/:id/pin
GET /api/metrics/token
POST /api/metrics/token/refresh
POST /api/route
POST /api/web/tls/:flag
POST /api/web/port/restart
POST /api/update/upload
POST /api/poolnode/project/apply
POST /api/poolnode/project/config
POST /api/poolnode/subaccount/config
POST /api/poolnode/subaccount/rebate
POST /api/poolnode/withdrawal/submit
POST /api/poolnode/withdrawal/approve
POST /api/poolnode/port/new
POST /api/poolnode/extra/:port
POST /api/poolnode/update/address
`
  .trim()
  .split("\n")
  .sort();

test("pools, wallets, ratios, the account, tokens, the route, the web port and releases need a fresh password", () => {
  const flagged = allRoutes
    .filter((r) => r.reauth)
    .map((r) => `${r.method} ${r.path}`)
    .sort();
  expect(flagged).toEqual(FLAGGED);
  // a machine token never has to (and cannot) re-authenticate: no scoped route is flagged
  expect(allRoutes.filter((r) => r.reauth && r.scope)).toEqual([]);
});
