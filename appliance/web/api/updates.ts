import { z } from "zod";
import { applyBundle, RESTART_EXIT_CODE, UpdateRefused } from "../../ops/ota/apply.ts";
import { listReleases, versionInfo } from "../../ops/ota/releases.ts";
import { readUpdateLog } from "../../ops/ota/update-log.ts";
import { audit, auditRefusal } from "../audit.ts";
import { parseBody } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { Route } from "../router.ts";

export const UPDATE_SOURCE_SETTING = "update_source";
const MAX_BUNDLE = 200 * 1024 * 1024;
/** The written reason a downgrade needs (it goes into the audit log with the change). */
export const REASON_MAX = 500;

/**
 * OTA updates (design.md Delivery): the version and the newest one the update source offers, the
 * installed releases, the update log, and applying an uploaded signed bundle. Applying ends with a
 * restart: the process exits with RESTART_EXIT_CODE and the service manager starts the new release.
 */
export const updateRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/version",
    handler: async ({ app }) =>
      Response.json(
        await versionInfo({ updateSource: app.settings.get<string>(UPDATE_SOURCE_SETTING, "") || null }),
      ),
  },
  {
    method: "GET",
    path: "/api/releases",
    handler: async ({ app }) => Response.json(await listReleases(app.config.dataDir)),
  },
  {
    method: "GET",
    path: "/api/update/log",
    handler: async ({ app }) => Response.json(await readUpdateLog(app.config.dataDir)),
  },
  {
    method: "GET",
    path: "/api/update/source",
    handler: ({ app }) => Response.json({ url: app.settings.get<string>(UPDATE_SOURCE_SETTING, "") }),
  },
  {
    method: "POST",
    path: "/api/update/source",
    handler: async (r) => {
      const { app, req } = r;
      const { url } = await parseBody(
        req,
        z.object({ url: z.union([z.literal(""), z.url("lang.update.err_source")]) }),
      );
      audit(r, "update source", { url: app.settings.get<string>(UPDATE_SOURCE_SETTING, "") }, { url });
      app.settings.set(UPDATE_SOURCE_SETTING, url);
      return Response.json({ url });
    },
  },
  {
    method: "POST",
    path: "/api/update/upload",
    reauth: true,
    handler: async (r) => {
      const { app, req, url, address, credential, action } = r;
      const form = await req.formData();
      const file = form.get("bundle");
      if (file === null || typeof file === "string")
        throw badRequest("lang.update.err_bundle", { field: "bundle" });
      if (file.size > MAX_BUNDLE) throw badRequest("lang.update.err_bundle", { field: "bundle" });
      // A downgrade (or reinstall) may bring back a release with known holes: besides a fresh password
      // (the route's reauth flag) it needs a written reason, kept in the audit log with the change.
      const force = url.searchParams.get("force") === "1";
      const written = form.get("reason");
      const reason = typeof written === "string" ? written.trim() : "";
      if (force && (reason === "" || reason.length > REASON_MAX)) {
        auditRefusal(
          app,
          credential,
          address,
          action,
          "downgrade without a written reason (1 to 500 characters)",
        );
        throw badRequest("lang.update.err_reason", { field: "reason" });
      }
      const because = force ? `downgrade allowed; reason: ${reason}` : "";
      try {
        const result = await applyBundle({
          dataDir: app.config.dataDir,
          bundle: new Uint8Array(await file.arrayBuffer()),
          force,
        });
        app.logs.add("operation", `update ${result.from} → ${result.to} applied; restarting`, address);
        audit(r, "release", { version: result.from }, { version: result.to, forced: force }, because);
        // Reply first, then hand over to the service manager, which starts the new release.
        setTimeout(() => process.exit(RESTART_EXIT_CODE), 300);
        return Response.json(result);
      } catch (err) {
        if (err instanceof UpdateRefused) {
          if (force) auditRefusal(app, credential, address, action, `${err.message}; ${because}`);
          throw new ApiError(400, "lang.update.err_refused", { detail: err.code }, err.message);
        }
        throw err;
      }
    },
  },
];
