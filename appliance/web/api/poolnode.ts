/**
 * The /api/poolnode/* calls of spec §7 built so far (docs/pool-node.md): the project (apply, info,
 * config, active, unactive), sync/info, and the ledger's reading calls (project/stats, address/info,
 * rewards, payouts, profit). Replies keep the `{status, data}` shape the pool-node page reads; status 4
 * means "not activated" (spec §4, §8). Amounts are integers in the coin's base unit.
 */
import { z } from "zod";
import { diff1Target, difficultyOfHash } from "../../engine/stratum/bitcoin/target.ts";
import { POOL_COINS } from "../../poolnode/pool/coins.ts";
import { CredentialsError, projectSchema, publicProject, withCredentials } from "../../poolnode/project.ts";
import { audit } from "../audit.ts";
import { parseBody, parseWith } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { RequestInfo, Route } from "../router.ts";

const NOT_ACTIVATED = 4;
const notActivated = () => Response.json({ status: NOT_ACTIVATED, message: "not activated" });
const ok = (data: unknown) => Response.json({ status: 0, data });

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

/** Hashrate and the worker counts look back this far. */
const RECENT_MS = 10 * 60_000;

const query = <T extends z.ZodType>(r: RequestInfo, schema: T): z.infer<T> =>
  parseWith(schema, Object.fromEntries(r.url.searchParams));

/** The ledger's calls answer once a project is activated, running or not (the ledger outlives a stop). */
function ledgerRoute(path: string, handler: (r: RequestInfo) => unknown): Route {
  return {
    method: "GET",
    path,
    handler: (r) => (r.app.poolNode.state() === "not_activated" ? notActivated() : ok(handler(r))),
  };
}

function projectStats(r: RequestInfo) {
  const p = r.app.poolNode.project();
  if (p === null) return null;
  const { k } = query(r, statsQuery);
  if (k !== undefined && k !== p.coin) throw badRequest(QUERY, { field: "k" });
  const store = r.app.poolNode.store;
  const pool = r.app.poolNode.running;
  const algorithm = POOL_COINS[p.coin].algorithm;
  const recent = store.recentWork(Date.now() - RECENT_MS);
  const work = recent.reduce((sum, w) => sum + w.work, 0);
  // hashes per unit of work: 2^256 over the coin's difficulty-1 target
  const hashesPerWork = 2 ** 256 / Number(diff1Target(algorithm));
  const target = pool?.currentJob?.template.target;
  const networkDifficulty = target === undefined ? null : difficultyOfHash(BigInt(`0x${target}`), algorithm);
  const roundWork = store.workSinceLastBlock();
  return {
    coin: p.coin,
    hashrate: (work * hashesPerWork) / (RECENT_MS / 1000),
    connections: pool?.connections ?? 0,
    workers: recent.length,
    addresses: new Set(recent.map((w) => w.address)).size,
    shares: {
      accepted: pool?.stats.accepted ?? 0,
      rejected: [...(pool?.stats.rejected.values() ?? [])].reduce((a, b) => a + b, 0),
    },
    blocks_found: store.blockCount(),
    network_difficulty: networkDifficulty,
    round_work: roundWork,
    effort: networkDifficulty === null || networkDifficulty === 0 ? null : roundWork / networkDifficulty,
  };
}

function addressInfo(r: RequestInfo) {
  const p = r.app.poolNode.project();
  const { address: a } = query(r, addressQuery);
  const store = r.app.poolNode.store;
  const [window] = store.windowWork(store.tip().id, p?.pplns_window ?? 0, a).work;
  const { balance, paid } = store.balance(a);
  return {
    address: a,
    balance,
    paid,
    window: { work: window?.work ?? 0, shares: window?.shares ?? 0 },
    workers: store.recentWork(Date.now() - RECENT_MS, a).map((w) => ({
      worker: w.worker,
      work: w.work,
      shares: w.shares,
      last_share_at: w.last,
    })),
  };
}

export const poolNodeRoutes: Route[] = [
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
        throw new ApiError(502, "lang.poolnode.err_daemon", {
          detail: e instanceof Error ? e.message : String(e),
        });
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
        throw new ApiError(502, "lang.poolnode.err_daemon", {
          detail: e instanceof Error ? e.message : String(e),
        });
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
