import { z } from "zod";
import { MAX_BATCH_MS, RMS_DEFAULTS, RMS_SETTING } from "../../domain/rms.ts";
import { keep, mask } from "../../domain/secret-mask.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { parseBody } from "../body.ts";
import { badRequest } from "../errors.ts";
import type { Route } from "../router.ts";

/**
 * Settings stored as one object each (spec §3 "Other entities"): pump time, RMS
 * front proxy and the preset end-point lists. GET answers the stored object (or its defaults),
 * POST validates and replaces it whole.
 */
interface SettingObject<T extends z.ZodType<object>> {
  path: string;
  key: string;
  schema: T;
  defaults: z.infer<T>;
  /** hands a saved value to whoever reads it besides the store; the answer waits for it */
  applied?: (app: AppContext, value: z.infer<T>) => Promise<void>;
  /** what a read shows (a secret masked), and how a save that sends the mask back keeps it */
  shown?: (value: z.infer<T>) => z.infer<T>;
  kept?: (next: z.infer<T>, stored: z.infer<T>) => z.infer<T>;
}

const rmsSchema = z.object({
  password: z.string().max(128, "lang.rms.err_update").default(""),
  port_mode: z.enum(["default", "custom"], "lang.rms.err_update").default("default"),
  port_map: z
    .array(
      z.object({
        server: z.number().int().min(1, "lang.rms.err_update").max(65535, "lang.rms.err_update"),
        local: z.number().int().min(1, "lang.rms.err_update").max(65535, "lang.rms.err_update"),
      }),
    )
    .max(1000, "lang.rms.err_update")
    .default([]),
  client_name: z.string().trim().max(128, "lang.rms.err_update").default(""),
  announcement: z.string().max(2000, "lang.rms.err_update").default(""),
  other: z.string().max(2000, "lang.rms.err_update").default(""),
  batch_ms: z
    .number("lang.rms.err_batch")
    .int("lang.rms.err_batch")
    .min(0, "lang.rms.err_batch")
    .max(MAX_BATCH_MS, "lang.rms.err_batch")
    .default(0),
});

const required = z
  .string("lang.preset.err_incomplete")
  .transform((s) => s.trim())
  .pipe(z.string("lang.preset.err_incomplete").min(1, "lang.preset.err_incomplete"));
const endpointSchema = z.object({
  customPool: z
    .array(
      z.object({
        coin: required,
        name: required,
        address: required.transform((s) => s.replace(/\s+/g, "")),
        deal: z.union([z.literal(0), z.literal(1)], "lang.preset.err_incomplete"),
      }),
    )
    .max(1000, "lang.err.params")
    .default([]),
  customWallet: z
    .array(
      z.object({
        name: required,
        address: required.transform((s) => s.replace(/\s+/g, "")),
        protocol: z.union([z.literal(0), z.literal(1)]).default(0),
      }),
    )
    .max(1000, "lang.err.params")
    .default([]),
});

function settingRoutes<T extends z.ZodType<object>>(o: SettingObject<T>): Route[] {
  const shown = o.shown ?? ((v: z.infer<T>) => v);
  return [
    {
      method: "GET",
      path: o.path,
      handler: ({ app }) => Response.json(shown(app.settings.getObject(o.key, o.defaults))),
    },
    {
      method: "POST",
      path: o.path,
      handler: async (r) => {
        const { app, req } = r;
        const stored = app.settings.getObject(o.key, o.defaults);
        const sent = await parseBody(req, o.schema);
        const value = o.kept ? o.kept(sent, stored) : sent;
        audit(r, `setting ${o.key}`, stored, value);
        app.settings.set(o.key, value);
        await o.applied?.(app, value);
        return Response.json(shown(value));
      },
    },
  ];
}

export const PUMP_T_SETTING = "pump_t";

function pumpT(app: AppContext) {
  return { t: app.settings.get<number>(PUMP_T_SETTING, 0) };
}

export const preferenceRoutes: Route[] = [
  ...settingRoutes({
    path: "/api/rms/config",
    key: RMS_SETTING,
    schema: rmsSchema,
    defaults: RMS_DEFAULTS,
    // the tunnel ports read them at each handshake, on the engine's thread
    applied: (app, rms) => app.engine.setEnvironment({ rms }),
    // the password its tunnel clients must present never leaves in clear, as other secrets
    shown: (rms) => ({ ...rms, password: mask(rms.password) }),
    kept: (next, stored) => ({ ...next, password: keep(next.password, stored.password) }),
  }),
  ...settingRoutes({
    path: "/api/local/pool/endpoint",
    key: "endpoint",
    schema: endpointSchema,
    defaults: { customPool: [], customWallet: [] },
  }),
  { method: "GET", path: "/api/pump/t", handler: ({ app }) => Response.json(pumpT(app)) },
  {
    method: "POST",
    path: "/api/pump/t/:pump_t",
    handler: (r) => {
      const { app, params } = r;
      const t = Number(params.pump_t);
      if (!Number.isInteger(t) || t < 0 || t > 3600) throw badRequest("lang.pump.err_save");
      audit(r, "setting pump_t", pumpT(app), { t });
      app.settings.set(PUMP_T_SETTING, t);
      app.engine.setFeeHoldSeconds(t);
      return Response.json(pumpT(app));
    },
  },
];
