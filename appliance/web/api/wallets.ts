import { z } from "zod";
import { feeSupported, isCategory } from "../../catalog/categories.ts";
import type { Port } from "../../domain/port.ts";
import { ProxyMode } from "../../domain/port.ts";
import { missingTransport } from "../../domain/transports.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { badRequest, notFound } from "../errors.ts";
import type { Route } from "../router.ts";
import { overAll, walletSchema } from "../schemas/port.ts";
import { notQueuing, portOr404 } from "./port-guards.ts";

const MAX_FEE_WALLETS = 10;

/** Hot wallet editor rows (spec §5): each row needs addr, device and pool_address. */
const hotWallet = walletSchema.superRefine((w, ctx) => {
  if (!w.addr) ctx.addIssue({ code: "custom", message: "lang.wallet.err_addr", path: ["addr"] });
  if (!w.device) ctx.addIssue({ code: "custom", message: "lang.wallet.err_device", path: ["device"] });
  if (!w.pool_address)
    ctx.addIssue({ code: "custom", message: "lang.wallet.err_pool", path: ["pool_address"] });
});
const newWallet = z.object({ server_id: z.number("lang.err.params").int() }).and(hotWallet);

/**
 * Fee wallets of a coin relayed as is (pass-through) cannot take work: a new wallet is refused, and
 * an edited row may only keep a ratio of 0.
 */
function feeAllowed(port: Port, wallets: readonly { ratio: number }[] | null): void {
  if (!isCategory(port.category) || feeSupported(port.category)) return;
  if (wallets === null || wallets.some((w) => w.ratio > 0))
    throw badRequest("lang.wallet.err_fee_unsupported", { field: "ratio", detail: port.category });
}

/** Applies a fee-wallet change to the running port without disconnecting anyone. */
async function hotUpdate(app: AppContext, portId: number): Promise<void> {
  await app.engine.updateWallets(app.ports.get(portId) as Port);
}

function compatibleFix<T extends { pool_address: string; pool_protocol: number }>(port: Port, w: T): T {
  return port.mode === ProxyMode.COMPATIBLE
    ? { ...w, pool_address: port.pool_address, pool_protocol: port.connect_mode }
    : w;
}

/** A fee pool reached over a transport the engine does not implement (RMS2/RMS3) is refused. */
function transportAllowed(port: Port, wallets: readonly { ratio: number; pool_protocol: number }[]): void {
  const missing = missingTransport({ ...port, wallets });
  if (missing?.field === "wallets") throw badRequest("lang.proxy.err_transport", { field: "pool_protocol" });
}

export const walletRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/wallet/new",
    reauth: true,
    handler: async (r) => {
      const { app, req } = r;
      const body = await parseBody(req, newWallet);
      const port = portOr404(app, String(body.server_id));
      feeAllowed(port, null);
      if (port.wallets.length >= MAX_FEE_WALLETS) throw badRequest("lang.wallet.err_max");
      if (overAll([...port.wallets, body])) throw badRequest("lang.wallet.err_total", { field: "ratio" });
      transportAllowed(port, [body]);
      const { server_id: _s, ...w } = body;
      const id = app.ports.addWallet(port.id, compatibleFix(port, w));
      audit(r, `fee wallet ${id} of port ${port.port}`, null, app.ports.wallet(id));
      await hotUpdate(app, port.id);
      return Response.json({ id });
    },
  },
  {
    method: "POST",
    path: "/api/wallet/:id",
    reauth: true,
    handler: async (r) => {
      const { app, req, params } = r;
      const current = app.ports.wallet(Number(params.id));
      if (!current) throw notFound();
      const port = portOr404(app, String(current.server_id));
      const body = await parseBody(req, hotWallet);
      feeAllowed(port, [body]);
      if (overAll([...port.wallets.filter((w) => w.id !== current.id), body]))
        throw badRequest("lang.wallet.err_total", { field: "ratio" });
      transportAllowed(port, [body]);
      app.ports.updateWallet(current.id, compatibleFix(port, body));
      audit(r, `fee wallet ${current.id} of port ${port.port}`, current, app.ports.wallet(current.id));
      await hotUpdate(app, port.id);
      return Response.json({ id: current.id });
    },
  },
  {
    method: "DELETE",
    path: "/api/wallet/:id",
    reauth: true,
    handler: async (r) => {
      const { app, params } = r;
      const current = app.ports.wallet(Number(params.id));
      if (!current) throw notFound();
      const port = portOr404(app, String(current.server_id));
      // Spec §5: at least one wallet config must remain.
      if (port.wallets.length <= 1) throw badRequest("lang.wallet.err_min");
      app.ports.deleteWallet(current.id);
      audit(r, `fee wallet ${current.id} of port ${port.port}`, current, null);
      await hotUpdate(app, port.id);
      return ok();
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/wallets",
    reauth: true,
    handler: async (r) => {
      const { app, req, params } = r;
      // The hot wallet editor saves the whole list of one port at once.
      const port = portOr404(app, params.id);
      notQueuing(app, port.id);
      const { wallets } = await parseBody(
        req,
        z.object({
          wallets: z
            .array(hotWallet)
            .min(1, "lang.wallet.err_min")
            .max(MAX_FEE_WALLETS, "lang.wallet.err_max"),
        }),
      );
      feeAllowed(port, wallets);
      if (overAll(wallets)) throw badRequest("lang.wallet.err_total", { field: "wallets" });
      transportAllowed(port, wallets);
      app.ports.replaceWallets(
        port.id,
        wallets.map((w) => compatibleFix(port, w)),
      );
      audit(r, `fee wallets of port ${port.port}`, port.wallets, app.ports.wallets(port.id));
      await hotUpdate(app, port.id);
      return Response.json({ wallets: app.ports.wallets(port.id) });
    },
  },
];
