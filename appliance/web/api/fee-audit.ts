import { join } from "node:path";
import { z } from "zod";
import { exportFeeAudit } from "../../stats/fee-audit-export.ts";
import { DB_FILE } from "../../store/db.ts";
import { parseWith } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { Route } from "../router.ts";
import { portOr404 } from "./port-guards.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** a month of hours × 11 targets; the store keeps 30 days anyway */
export const MAX_AUDIT_DAYS = 31;

const instant = z.coerce
  .number("lang.audit.err_range")
  .int("lang.audit.err_range")
  .min(0, "lang.audit.err_range")
  .optional();

const query = z.object({
  from: instant,
  to: instant,
  format: z.enum(["csv", "xlsx"], "lang.audit.err_format").default("csv"),
});

const TYPES = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The hourly fee audit of a port (docs/api.md): work to the main pool and to each fee wallet per hour,
 * configured vs achieved, as CSV or xlsx, built in a worker thread so the proxy does not wait.
 */
export const feeAuditRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/stat/port/:id/fee-audit",
    handler: async ({ app, params, url }) => {
      const port = portOr404(app, params.id, "lang.audit.err_port");
      const q = parseWith(query, Object.fromEntries(url.searchParams));
      const to = q.to ?? Date.now();
      const from = q.from ?? to - DAY_MS;
      if (from > to) throw badRequest("lang.audit.err_range", { field: "from" });
      if (to - from > MAX_AUDIT_DAYS * DAY_MS) throw badRequest("lang.audit.err_range", { field: "to" });
      let bytes: Uint8Array;
      try {
        bytes = await exportFeeAudit({
          dbFile: join(app.config.dataDir, DB_FILE),
          portId: port.id,
          fromHour: Math.floor(from / HOUR_MS),
          toHour: Math.floor(to / HOUR_MS),
          format: q.format,
        });
      } catch (err) {
        throw new ApiError(500, "lang.audit.err_export", { detail: (err as Error).message });
      }
      const name = `pithead-fee-audit-${port.port}-${day(from)}-${day(to)}.${q.format}`;
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": TYPES[q.format], "content-disposition": `attachment; filename="${name}"` },
      });
    },
  },
];
