/** Small form rules of spec §5: hot wallets, presets, clients, pool-node ports, import files. */
import type { FieldError } from "./types.ts";

const blank = (s: string | undefined | null) => (s ?? "").trim() === "";

export function validateHotWallets(
  rows: { addr: string; device: string; pool_address: string }[],
): FieldError[] {
  const errs: FieldError[] = [];
  rows.forEach((r, i) => {
    if (blank(r.addr)) errs.push({ field: "addr", key: "lang.wallet.err_addr", row: i + 1 });
    if (blank(r.device)) errs.push({ field: "device", key: "lang.wallet.err_device", row: i + 1 });
    if (blank(r.pool_address)) errs.push({ field: "pool_address", key: "lang.wallet.err_pool", row: i + 1 });
  });
  return errs;
}

/** Every value filled; otherwise the single key of the form. */
export function requireAll(
  values: Record<string, string | number | null | undefined>,
  key: string,
): FieldError[] {
  return Object.entries(values)
    .filter(([, v]) => blank(v === null || v === undefined ? "" : String(v)))
    .map(([field]) => ({ field, key }));
}

export const validatePresetPool = (p: { coin: string; name: string; address: string; deal: string }) =>
  requireAll(p, "lang.preset.err_incomplete");
export const validatePresetWallet = (p: { name: string; address: string }) =>
  requireAll(p, "lang.preset.err_incomplete");
export const validateClient = (p: { address: string; token: string; remark: string }) =>
  requireAll(p, "lang.remote.err_required");

export function validatePoolNodePort(p: { coin: string; port: string; area: string }): FieldError[] {
  const errs = requireAll(p, "lang.poolnode.err_incomplete");
  const n = Number(p.port);
  if (!errs.length && (!/^\d+$/.test(p.port) || n < 1 || n > 65535))
    errs.push({ field: "port", key: "lang.poolnode.err_incomplete" });
  return errs;
}

/** Import file types: JSON, xlsx (only) and the third-party text format. */
export function importKind(fileName: string): "json" | "xlsx" | "txt" | null {
  const ext = fileName.toLowerCase().split(".").pop() ?? "";
  if (ext === "json") return "json";
  if (ext === "xlsx") return "xlsx";
  if (ext === "txt" || ext === "conf") return "txt";
  return null;
}
