/**
 * The /api/poolnode/* calls of spec §7 built so far (docs/pool-node.md): the project (apply, info,
 * config, active, unactive), sync/info, and the ledger's reading calls (project/stats, address/info,
 * rewards, payouts, profit), and the sub-accounts with their rebates and withdrawals. Replies keep the
 * `{status, data}` shape the pool-node page reads; status 4 means "not activated" (spec §4, §8).
 * Amounts are integers in the coin's base unit.
 */
import { z } from "zod";
import { baseUnits, MIN_PAYOUT_COINS } from "../../poolnode/amounts.ts";
import { CredentialsError, projectSchema, publicProject, withCredentials } from "../../poolnode/project.ts";
import { addressView, poolStats } from "../../poolnode/views.ts";
import { readPageSettings } from "../../poolnode/web/page-settings.ts";
import { SubaccountError } from "../../store/poolnode-subaccounts.ts";
import { WorkerBusy } from "../../workers.ts";
import { audit } from "../audit.ts";
import { parseBody, parseWith } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";
import { daemonFailure, nodeRoute, notActivated, ok } from "./poolnode-reply.ts";

async function readProjectBody(r: RequestInfo) {
  const body = await parseBody(r.req, projectSchema);
  try {
    return withCredentials(body, r.app.poolNode.project());
  } catch (e) {
    if (e instanceof CredentialsError)
      throw badRequest("lang.poolnode.err_config", { field: "rpc_cookie_file" });
    throw e;
  }
}

/** Stores the project (apply creates it, config changes it); both set where block rewards go. */
async function saveProject(r: RequestInfo): Promise<Response> {
  const next = await readProjectBody(r);
  const before = r.app.poolNode.project();
  if (r.app.poolNode.extraPort(next.stratum_port) !== null)
    throw new ApiError(409, "lang.poolnode.err_port_in_use", {
      field: "stratum_port",
      detail: "pool-node port",
    });
  audit(r, "pool-node project", before, { ...next, active: before?.active ?? false });
  await r.app.poolNode.save(next);
  const saved = r.app.poolNode.project();
  return ok(saved === null ? null : publicProject(saved));
}

const QUERY = "lang.err.params";
const address = z.string(QUERY).trim().min(1, QUERY).max(128, QUERY);
const limit = z.coerce.number(QUERY).int(QUERY).min(1, QUERY).max(500, QUERY).default(50);
const addressQuery = z.object({ address });
const listQuery = z.object({ address: address.optional(), limit });
const statsQuery = z.object({ k: z.string(QUERY).trim().toUpperCase().optional() });

const query = <T extends z.ZodType>(r: RequestInfo, schema: T): z.infer<T> =>
  parseWith(schema, Object.fromEntries(r.url.searchParams));

/** The ledger's calls answer once a project is activated, running or not (the ledger outlives a stop). */
function ledgerRoute(path: string, handler: (r: RequestInfo) => unknown): Route {
  return {
    method: "GET",
    path,
    handler: async (r) =>
      r.app.poolNode.state() === "not_activated" ? notActivated() : ok(await handler(r)),
  };
}

function projectStats(r: RequestInfo) {
  const p = r.app.poolNode.project();
  if (p === null) return null;
  const { k } = query(r, statsQuery);
  if (k !== undefined && k !== p.coin) throw badRequest(QUERY, { field: "k" });
  return poolStats(r.app.poolNode);
}

async function addressInfo(r: RequestInfo) {
  const { address: a } = query(r, addressQuery);
  return addressView(r.app.poolNode, a).catch((e: unknown) => {
    throw e instanceof WorkerBusy ? new ApiError(429, "lang.poolnode.err_busy") : e;
  });
}

// ── sub-accounts and withdrawals ──

const SUB = "lang.poolnode.err_subaccount_config";
const WD = "lang.poolnode.err_withdrawal_config";
const id = (key: string) => z.number(key).int(key).positive(key);
const ratio = z.number(SUB).min(0, SUB).max(1, SUB);
const subaccountBody = z.object({
  /** absent: a new sub-account */
  id: id(SUB).optional(),
  name: z.string(SUB).trim().min(1, SUB).max(64, SUB),
  addresses: z
    .array(address.pipe(z.string(SUB)), SUB)
    .min(1, SUB)
    .max(1000, SUB),
  /** absent: 0 for a new sub-account, the stored one for an edit */
  rebate: ratio.optional(),
});
const rebateBody = z.object({ id: id(SUB), rebate: ratio });
const withdrawalBody = z.object({
  subaccount_id: id(WD),
  amount: z.number(WD).int(WD).min(baseUnits(MIN_PAYOUT_COINS), WD).max(Number.MAX_SAFE_INTEGER, WD),
  address: z.string(WD).trim().min(1, WD).max(128, WD),
});
const decisionBody = z.object({
  id: id("lang.err.params"),
  reason: z.string(QUERY).trim().max(500, QUERY).default(""),
});
const subaccountQuery = z.object({ id: z.coerce.number(QUERY).int(QUERY).positive(QUERY) });
const logsQuery = z.object({
  subaccount_id: z.coerce.number(QUERY).int(QUERY).positive(QUERY).optional(),
  limit,
});

/** The store's refusals as API errors. */
function refused(e: unknown): never {
  if (!(e instanceof SubaccountError)) throw e;
  const r = e.refusal;
  switch (r.kind) {
    case "no_subaccount":
      throw new ApiError(404, "lang.poolnode.err_no_subaccount");
    case "name_taken":
      throw badRequest("lang.poolnode.err_name_taken", { field: "name" });
    case "member_elsewhere":
      throw badRequest("lang.poolnode.err_member", { field: "addresses", value: r.address });
    case "over_balance":
      throw badRequest("lang.poolnode.err_balance", { field: "amount", detail: String(r.balance) });
    case "not_empty":
      throw new ApiError(409, "lang.poolnode.err_subaccount_not_empty", {
        detail: `balance ${r.balance}, held ${r.held}`,
      });
    case "no_withdrawal":
    case "not_requested":
      throw new ApiError(409, "lang.poolnode.err_withdrawal_state");
  }
}

/** Every address must be one the project's daemon takes; the first it refuses is named. */
async function checkAddresses(r: RequestInfo, addresses: readonly string[], field: string): Promise<void> {
  let invalid: string[];
  try {
    invalid = await r.app.poolNode.invalidAddresses(addresses);
  } catch (e) {
    throw daemonFailure(e);
  }
  const [first] = invalid;
  if (first !== undefined) throw badRequest("lang.poolnode.err_address", { field, value: first });
}

/** A sub-account call: its store's refusals become their messages. */
function subaccountRoute(
  method: "GET" | "POST" | "DELETE",
  path: string,
  handler: (r: RequestInfo) => unknown,
  reauth = false,
): Route {
  return nodeRoute(
    method,
    path,
    async (r) => {
      try {
        return await handler(r);
      } catch (e) {
        return refused(e);
      }
    },
    reauth,
  );
}

async function saveSubaccount(r: RequestInfo) {
  const body = await parseBody(r.req, subaccountBody);
  await checkAddresses(r, body.addresses, "addresses");
  const store = r.app.poolNode.subaccounts;
  const before = body.id === undefined ? null : store.get(body.id);
  const saved = store.save(body, Date.now());
  audit(r, `pool-node sub-account ${saved.name}`, before && describe(before), describe(saved));
  return saved;
}

/** What the audit log keeps of a sub-account: who its members are and what it gets back. */
const describe = (s: { name: string; addresses: string[]; rebate: number }) => ({
  name: s.name,
  addresses: s.addresses,
  rebate: s.rebate,
});

async function setRebate(r: RequestInfo) {
  const body = await parseBody(r.req, rebateBody);
  const store = r.app.poolNode.subaccounts;
  const before = store.get(body.id);
  const saved = store.setRebate(body.id, body.rebate, Date.now());
  audit(r, `pool-node sub-account ${saved.name}`, before && describe(before), describe(saved));
  return saved;
}

async function submitWithdrawal(r: RequestInfo) {
  const body = await parseBody(r.req, withdrawalBody);
  await checkAddresses(r, [body.address], "address");
  const w = r.app.poolNode.subaccounts.requestWithdrawal(
    body.subaccount_id,
    body.amount,
    body.address,
    Date.now(),
  );
  audit(r, `pool-node withdrawal ${w.id}`, null, {
    name: w.name,
    amount: w.amount,
    address: w.address,
    state: w.state,
  });
  return w;
}

function decide(verdict: "approved" | "refused") {
  return async (r: RequestInfo) => {
    const body = await parseBody(r.req, decisionBody);
    const w = r.app.poolNode.subaccounts.decide(body.id, verdict, body.reason, Date.now());
    audit(r, `pool-node withdrawal ${w.id}`, { state: "requested" }, { state: w.state, reason: w.reason });
    if (verdict === "approved") r.app.poolNode.payoutSoon();
    return w;
  };
}

async function deleteSubaccount(r: RequestInfo) {
  const { id: sid } = await parseBody(r.req, z.object({ id: id(SUB) }));
  const gone = r.app.poolNode.subaccounts.delete(sid, Date.now());
  audit(r, `pool-node sub-account ${gone.name}`, describe(gone), null);
  return { id: sid };
}

async function cancelWithdrawal(r: RequestInfo) {
  const { id: wid } = await parseBody(r.req, z.object({ id: id("lang.err.params") }));
  const w = r.app.poolNode.subaccounts.cancelWithdrawal(wid);
  audit(r, `pool-node withdrawal ${w.id}`, { state: "requested", amount: w.amount }, { state: "cancelled" });
  return { ...w, state: "cancelled" };
}

const subaccountRoutes: Route[] = [
  subaccountRoute("GET", "/api/poolnode/subaccount/configs", (r) => r.app.poolNode.subaccounts.list()),
  subaccountRoute("POST", "/api/poolnode/subaccount/config", saveSubaccount, true),
  subaccountRoute("POST", "/api/poolnode/subaccount/rebate", setRebate, true),
  // money never moves by a deletion (only an empty one is deleted), nor by a cancel (it only frees a hold)
  subaccountRoute("POST", "/api/poolnode/subaccount/delete", deleteSubaccount),
  subaccountRoute("POST", "/api/poolnode/withdrawal/cancel", cancelWithdrawal),
  subaccountRoute("GET", "/api/poolnode/withdrawal/can/apply", (r) => {
    const s = r.app.poolNode.subaccounts.get(query(r, subaccountQuery).id);
    if (s === null) throw new ApiError(404, "lang.poolnode.err_no_subaccount");
    return { id: s.id, balance: s.balance, held: s.held, paid: s.paid, min: baseUnits(MIN_PAYOUT_COINS) };
  }),
  subaccountRoute("POST", "/api/poolnode/withdrawal/submit", submitWithdrawal, true),
  subaccountRoute("POST", "/api/poolnode/withdrawal/approve", decide("approved"), true),
  subaccountRoute("POST", "/api/poolnode/withdrawal/refuse", decide("refused")),
  subaccountRoute("GET", "/api/poolnode/withdrawal/logs", (r) => {
    const q = query(r, logsQuery);
    return r.app.poolNode.subaccounts.withdrawals(q.limit, q.subaccount_id);
  }),
];

export const poolNodeRoutes: Route[] = [
  ...subaccountRoutes,
  { method: "POST", path: "/api/poolnode/project/apply", reauth: true, handler: saveProject },
  { method: "POST", path: "/api/poolnode/project/config", reauth: true, handler: saveProject },
  {
    method: "GET",
    path: "/api/poolnode/project/config",
    handler: ({ app }) => {
      const p = app.poolNode.project();
      return p === null ? notActivated() : ok(publicProject(p));
    },
  },
  {
    method: "GET",
    path: "/api/poolnode/project/info",
    handler: ({ app }) => {
      const p = app.poolNode.project();
      const state = app.poolNode.state();
      if (p === null || state === "not_activated") return notActivated();
      const job = app.poolNode.running?.currentJob ?? null;
      const page = readPageSettings(app.settings);
      return ok({
        state,
        error: app.poolNode.lastError,
        config: {
          coin: p.coin,
          fee: p.fee,
          pplns_window: p.pplns_window,
          difficulty: p.difficulty,
          vardiff_seconds: p.vardiff_seconds,
          payout_threshold: p.payout_threshold,
          payout_interval_seconds: p.payout_interval_seconds,
        },
        projectPort: p.stratum_port,
        endpoints: [{ id: 1, name: `${p.coin} daemon`, coin: p.coin }],
        enable: state === "running",
        templates: { active: job === null ? 0 : 1, total: 1 },
        // the public page (poolnode-page.ts) and the certificate it serves
        web_port: page.port,
        web_route: page.route,
        web_enable: page.enabled,
        tls: page.tls,
        default_cert: app.certificates.describe().builtin,
      });
    },
  },
  {
    method: "POST",
    path: "/api/poolnode/project/active",
    handler: async (r) => {
      if (r.app.poolNode.project() === null) return notActivated();
      const before = r.app.poolNode.state();
      try {
        await r.app.poolNode.activate();
      } catch (e) {
        throw daemonFailure(e);
      }
      audit(r, "pool-node state", { state: before }, { state: r.app.poolNode.state() });
      return ok({ state: r.app.poolNode.state() });
    },
  },
  {
    method: "POST",
    path: "/api/poolnode/project/unactive",
    handler: async (r) => {
      const before = r.app.poolNode.state();
      await r.app.poolNode.deactivate();
      audit(r, "pool-node state", { state: before }, { state: r.app.poolNode.state() });
      return ok({ state: r.app.poolNode.state() });
    },
  },
  {
    method: "GET",
    path: "/api/poolnode/sync/info",
    handler: async ({ app }) => {
      const pool = app.poolNode.running;
      if (app.poolNode.state() === "not_activated") return notActivated();
      if (pool === null) return ok({ state: "activated", error: app.poolNode.lastError });
      try {
        return ok({ state: "running", ...(await app.poolNode.syncInfo(pool)) });
      } catch (e) {
        throw daemonFailure(e);
      }
    },
  },
  ledgerRoute("/api/poolnode/project/stats", projectStats),
  ledgerRoute("/api/poolnode/address/info", addressInfo),
  ledgerRoute("/api/poolnode/rewards", (r) => {
    const q = query(r, listQuery);
    return r.app.poolNode.store.rewards(q.limit, q.address).map(({ block, credits }) => ({
      hash: block.hash,
      height: block.height,
      reward: block.reward,
      found_at: block.found_at,
      credited_at: block.credited_at,
      credits,
    }));
  }),
  ledgerRoute("/api/poolnode/payouts", (r) => {
    const q = query(r, listQuery);
    return r.app.poolNode.store.payouts(q.limit, q.address).map((p) => ({
      id: p.id,
      created_at: p.created_at,
      state: p.state,
      txid: p.txid,
      total: p.total,
      error: p.error,
      items: q.address === undefined ? p.items : p.items.filter((i) => i.address === q.address),
    }));
  }),
  ledgerRoute("/api/poolnode/profit", (r) => r.app.poolNode.store.profit(query(r, listQuery).limit)),
];
