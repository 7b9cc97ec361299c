import type { Port } from "../../domain/port.ts";
import type { ImportJob } from "../../io/import-worker.ts";
import {
  detectImportFormat,
  encodeExportJson,
  encodeXlsx,
  IMPORT_LIMITS,
  type ImportResult,
  type RawPort,
} from "../../io/index.ts";
import type { PortInput } from "../../store/ports.ts";
import { IMPORT_WORKER, runInWorker, WorkerTimeout } from "../../workers.ts";
import type { AppContext } from "../app-context.ts";
import { audit } from "../audit.ts";
import { readCapped } from "../body.ts";
import { ApiError, badRequest } from "../errors.ts";
import type { MessageKey } from "../messages.ts";
import { MESSAGES } from "../messages.ts";
import type { Route } from "../router.ts";
import { NotOffered, normalizePort, portSchema, UnsupportedCoin } from "../schemas/port.ts";
import { checkPortNumber } from "./port-guards.ts";

interface RowProblem {
  row: number;
  key: MessageKey;
  message: string;
  field?: string;
}

/** An import's file is decoded in a worker; one that takes longer than this is refused as too large. */
const IMPORT_TIMEOUT_MS = 20_000;
/** room for the multipart framing around the file */
const MULTIPART_SLACK = 64 * 1024;

/**
 * Reads the upload — a multipart file (its name decides JSON or xlsx) or a JSON body in our export
 * format — within the import limits, and decodes it in a worker thread.
 */
async function readUpload(req: Request): Promise<ImportResult> {
  const type = req.headers.get("content-type") ?? "";
  const raw = await readCapped(req, IMPORT_LIMITS.bytes + MULTIPART_SLACK).catch((err: unknown) => {
    throw err instanceof ApiError && err.status === 413 ? new ApiError(413, "lang.import.err_limits") : err;
  });
  let job: ImportJob;
  if (!type.includes("multipart/form-data")) job = { format: "json", bytes: raw };
  else {
    const form = await new Response(raw as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": type },
    }).formData();
    const file = form.get("file");
    if (file === null || typeof file === "string")
      throw badRequest("lang.import.err_params", { field: "file" });
    if (file.size > IMPORT_LIMITS.bytes) throw new ApiError(413, "lang.import.err_limits");
    const bytes = new Uint8Array(await file.arrayBuffer());
    const format = detectImportFormat(file.name, bytes);
    if (typeof format !== "string") throw badRequest(format.key);
    job = { format, bytes };
  }
  try {
    return await runInWorker<ImportJob, ImportResult>(IMPORT_WORKER, job, IMPORT_TIMEOUT_MS, [
      job.bytes.buffer as ArrayBuffer,
    ]);
  } catch (err) {
    if (err instanceof WorkerTimeout) throw new ApiError(413, "lang.import.err_limits");
    throw err;
  }
}

const problem = (row: number, key: MessageKey, field?: string): RowProblem => ({
  row,
  key,
  message: MESSAGES[key],
  ...(field ? { field } : {}),
});

/** Maps a validation failure of one row to the import error of spec §5 it stands for. */
function rowError(row: number, err: unknown): RowProblem {
  if (err instanceof ApiError) {
    const field = err.extra.field;
    if (err.key === "lang.proxy.err_duplicate") return problem(row, "lang.import.err_duplicate", field);
    if (err.key === "lang.proxy.err_occupied") return problem(row, "lang.import.err_occupied", field);
    if (field?.startsWith("wallets") || err.key.startsWith("lang.wallet."))
      return problem(row, "lang.import.err_wallet", field);
    return {
      row,
      key: "lang.import.err_params",
      message: `${MESSAGES["lang.import.err_params"]}: ${err.message}`,
      field,
    };
  }
  throw err;
}

function validateRow(
  app: AppContext,
  row: number,
  raw: RawPort,
  seen: Set<number>,
): PortInput | RowProblem | "ignored" {
  if (typeof raw.category !== "string" || raw.category.trim() === "")
    return problem(row, "lang.import.err_category", "category");
  const parsed = portSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = (issue?.message.startsWith("lang.") ? issue.message : "lang.err.params") as MessageKey;
    return rowError(row, new ApiError(400, key, { field: issue?.path.join(".") }));
  }
  let input: PortInput;
  try {
    input = normalizePort(parsed.data, { creating: true });
  } catch (err) {
    // a coin this version cannot proxy is left out, as the spec does for unknown coins
    if (err instanceof UnsupportedCoin || (err instanceof NotOffered && err.key === "lang.proxy.err_family"))
      return "ignored";
    if (err instanceof NotOffered) return problem(row, err.key, err.field);
    throw err;
  }
  if (seen.has(input.port)) return problem(row, "lang.import.err_duplicate", "port");
  seen.add(input.port);
  try {
    checkPortNumber(app, input.port, input.status === 1);
  } catch (err) {
    return rowError(row, err);
  }
  return input;
}

export const transferRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/ports/import",
    reauth: true,
    handler: async (r) => {
      const { app, req, address } = r;
      const file = await readUpload(req);
      if (!file.ok) throw badRequest(file.key);
      const errors: RowProblem[] = [];
      const ignored: RowProblem[] = [];
      const inputs: PortInput[] = [];
      const seen = new Set<number>();
      for (const r of file.rows) {
        if (!r.ok) {
          errors.push(problem(r.row, r.key));
          continue;
        }
        const v = validateRow(app, r.row, r.port, seen);
        if (v === "ignored") ignored.push(problem(r.row, "lang.import.err_coin", "currency"));
        else if ("key" in v) errors.push(v);
        else inputs.push(v);
      }
      // Nothing is half-imported: one bad row and no port is written.
      if (errors.length > 0) {
        const first = errors[0] as RowProblem;
        return Response.json(
          {
            error: { key: first.key, message: `Row ${first.row}: ${first.message}`, row: first.row },
            errors,
            ignored,
          },
          { status: 400 },
        );
      }
      const ids = app.ports.createMany(inputs);
      audit(r, `ports import (${ids.length})`, null, { ports: ids.map((id) => app.ports.get(id)) });
      for (const id of ids) await app.engine.apply(app.ports.get(id) as Port);
      app.logs.add("operation", `imported ${ids.length} ports (${ignored.length} ignored)`, address);
      return Response.json({ imported: ids.length, ids, ignored });
    },
  },
  {
    method: "GET",
    path: "/api/ports/export",
    handler: ({ app, url }) => {
      const ports = app.ports.list();
      const stamp = new Date().toISOString().slice(0, 10);
      if (url.searchParams.get("format") === "xlsx") {
        return new Response(encodeXlsx(ports) as Uint8Array<ArrayBuffer>, {
          headers: {
            "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "content-disposition": `attachment; filename="pithead-ports-${stamp}.xlsx"`,
          },
        });
      }
      return new Response(encodeExportJson(ports), {
        headers: {
          "content-type": "application/json",
          "content-disposition": `attachment; filename="pithead-ports-${stamp}.json"`,
        },
      });
    },
  },
];
