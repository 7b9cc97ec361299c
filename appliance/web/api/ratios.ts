import { z } from "zod";
import { audit } from "../audit.ts";
import { ok, parseBody } from "../body.ts";
import { notFound } from "../errors.ts";
import type { Route } from "../router.ts";
import { portOr404 } from "./port-guards.ts";

const r = z.number("lang.ratio.err_set").min(0, "lang.ratio.err_set").max(1, "lang.ratio.err_set");

/**
 * Fee ratio overrides (spec §4): per miner wallet and per device, priority device > wallet > port.
 * Each change is stored and handed to the engine at once; it applies from the next fee decision.
 */
export const ratioRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/port/:id/wallet/ratio",
    handler: ({ app, params }) => {
      const port = portOr404(app, params.id);
      const items = app.ratios.list(port.id).filter((o) => o.worker === null);
      return Response.json(items.map((o, i) => ({ addr: o.wallet, id: i + 1, ratio: o.ratio })));
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/wallet/ratio",
    reauth: true,
    handler: async (ri) => {
      const { app, req, params } = ri;
      // Spec body {wallet, wid, r}: r is the percentage / 100; wid identifies the row in the caller's list.
      const port = portOr404(app, params.id);
      const body = await parseBody(
        req,
        z.object({
          wallet: z.string("lang.ratio.err_set").trim().min(1, "lang.ratio.err_set"),
          wid: z.unknown().optional(),
          r,
        }),
      );
      const before = app.ratios.get(port.id, body.wallet, null);
      app.ratios.set(port.id, { wallet: body.wallet, worker: null, ratio: body.r });
      audit(ri, `ratio of wallet ${body.wallet} on port ${port.port}`, { ratio: before }, { ratio: body.r });
      app.engine.setWalletRatio(port.id, body.wallet, body.r);
      return ok();
    },
  },
  {
    method: "DELETE",
    path: "/api/port/:id/wallet/:wallet/ratio",
    reauth: true,
    handler: (ri) => {
      const { app, params } = ri;
      const port = portOr404(app, params.id);
      const wallet = params.wallet ?? "";
      const before = app.ratios.get(port.id, wallet, null);
      app.ratios.clear(port.id, wallet, null);
      audit(ri, `ratio of wallet ${wallet} on port ${port.port}`, { ratio: before }, { ratio: null });
      app.engine.setWalletRatio(port.id, wallet, null);
      return ok();
    },
  },
  {
    method: "POST",
    path: "/api/port/:id/worker/ratio",
    reauth: true,
    handler: async (ri) => {
      const { app, req, params } = ri;
      // worker is the device id of the device list; r null clears the device's own ratio. The ratio is
      // kept under the device's wallet and worker name, which it logs in with again after a restart
      // (the device id is handed out per run).
      const port = portOr404(app, params.id);
      const body = await parseBody(
        req,
        z.object({
          worker: z.string("lang.ratio.err_set").trim().min(1, "lang.ratio.err_set"),
          r: r.nullable(),
        }),
      );
      const device = await app.engine.live.worker(body.worker);
      if (device === null || device.portId !== port.id) throw notFound("lang.err.device_missing");
      const before = app.ratios.get(port.id, device.wallet, device.name);
      if (body.r === null) app.ratios.clear(port.id, device.wallet, device.name);
      else app.ratios.set(port.id, { wallet: device.wallet, worker: device.name, ratio: body.r });
      const who = `${device.wallet}.${device.name}`;
      audit(ri, `ratio of device ${who} on port ${port.port}`, { ratio: before }, { ratio: body.r });
      app.engine.setDeviceRatio(port.id, device.wallet, device.name, body.r);
      return ok();
    },
  },
  {
    method: "GET",
    path: "/api/wallet/:wallet_id/worker/:sid/ratio",
    handler: async ({ app, params }) => {
      // wallet_id: a fee wallet of the port; sid: a device id. Answers the ratio in force and where it comes from.
      const feeWallet = app.ports.wallet(Number(params.wallet_id));
      if (!feeWallet) throw notFound();
      const portId = feeWallet.server_id;
      const seen = await app.engine.live.worker(params.sid ?? "");
      const device = seen === null ? null : app.ratios.get(portId, seen.wallet, seen.name);
      const ofWallet = seen === null ? null : app.ratios.get(portId, seen.wallet, null);
      const ratio = device ?? ofWallet ?? feeWallet.ratio;
      const source = device !== null ? "device" : ofWallet !== null ? "wallet" : "port";
      return Response.json({ ratio, source, device, wallet: ofWallet, port: feeWallet.ratio });
    },
  },
];
