/** Port editor rules of spec §5, shared with the server. DOM-free. */
import type { FieldError } from "./types.ts";

export interface PortRuleInput {
  port: string;
  currency: string;
  pool_address: string;
  limit_connections: string;
  mode: number;
  proxy_addr: string;
  proxy_device: string;
  pattern_addr: string;
  replace_addr: string;
  sd: string;
  st: string;
  mallob: string;
  listen?: string;
  /** RFC 1929 credentials, checked on a SOCKS5 port (other transports do not send them) */
  socksUser?: string;
  socksPassword?: string;
  wallets: { addr: string; device: string; pool_address: string; percent: string }[];
}

export const PORT_MIN = 1;
export const PORT_MAX = 65534;
export const MAX_FEE_WALLETS = 10;

const blank = (s: string | undefined) => (s ?? "").replace(/\s+/g, "") === "";
const isInt = (s: string) => /^\d+$/.test(s.trim());

export function validPortNumber(value: string): boolean {
  if (!isInt(value)) return false;
  const n = Number(value);
  return n >= PORT_MIN && n <= PORT_MAX;
}

/** Percent 0..100 with at most two decimals. */
export function validPercent(value: string): boolean {
  if (!/^\d+(\.\d{1,2})?$/.test(value.trim())) return false;
  const n = Number(value);
  return n >= 0 && n <= 100;
}

/** RFC 1929: both 1 to 255 bytes, or neither. */
function socksProblem(user: string, password: string): "socks_user" | "socks_password" | null {
  if (user === "" && password === "") return null;
  const fits = (s: string) => s !== "" && new TextEncoder().encode(s).length <= 255;
  if (!fits(user)) return "socks_user";
  return fits(password) ? null : "socks_password";
}

export function validatePort(f: PortRuleInput): FieldError[] {
  const errs: FieldError[] = [];
  if (!validPortNumber(f.port)) errs.push({ field: "port", key: "lang.proxy.err_port" });
  if (blank(f.currency)) errs.push({ field: "currency", key: "lang.proxy.err_currency" });
  if (blank(f.pool_address)) errs.push({ field: "pool_address", key: "lang.proxy.err_pool_address" });
  if (f.limit_connections.trim() !== "") {
    if (!isInt(f.limit_connections) || Number(f.limit_connections) > 65535)
      errs.push({ field: "limit_connections", key: "lang.proxy.err_limit" });
  }
  if (f.currency === "NGINX") return errs;
  const socks = f.listen === "SOCKS5" ? socksProblem(f.socksUser ?? "", f.socksPassword ?? "") : null;
  if (socks) errs.push({ field: socks, key: "lang.proxy.err_socks_auth" });
  if (f.mode === 2) {
    if (blank(f.proxy_addr)) errs.push({ field: "proxy_addr", key: "lang.proxy.err_unified_wallet" });
    if (blank(f.proxy_device)) errs.push({ field: "proxy_device", key: "lang.proxy.err_unified_device" });
  }
  if (blank(f.pattern_addr) !== blank(f.replace_addr)) {
    errs.push({
      field: blank(f.pattern_addr) ? "pattern_addr" : "replace_addr",
      key: "lang.proxy.err_replace_wallet",
    });
  }
  if (blank(f.sd) !== blank(f.st)) {
    errs.push({ field: blank(f.sd) ? "sd" : "st", key: "lang.proxy.err_replace_name" });
  }
  if (f.mallob.trim() !== "" && (!isInt(f.mallob) || Number(f.mallob) > 65535))
    errs.push({ field: "mallob", key: "lang.proxy.err_mallob" });
  if (f.wallets.length > MAX_FEE_WALLETS) errs.push({ field: "wallets", key: "lang.wallet.err_max" });
  f.wallets.forEach((w, i) => {
    const row = i + 1;
    if (!validPercent(w.percent)) {
      errs.push({ field: "percent", key: "lang.wallet.err_ratio", row });
      return;
    }
    if (Number(w.percent) === 0) return;
    if (blank(w.addr)) errs.push({ field: "addr", key: "lang.wallet.err_addr", row });
    if (blank(w.pool_address) && f.mode !== 1)
      errs.push({ field: "pool_address", key: "lang.wallet.err_pool", row });
    if (blank(w.device)) errs.push({ field: "device", key: "lang.wallet.err_device", row });
  });
  return errs;
}
