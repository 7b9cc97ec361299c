/** The port editor's screen model and its conversion to and from the wire (spec §3–§5). DOM-free. */
import { tunnelFeePoolAllowed } from "../../../appliance/domain/transports.ts";
import type { PortItem, PortPayload, WireWallet } from "./port-types.ts";

export type ListenChoice = "TCP" | "SSL" | "TTS" | "RMS" | "RMS2" | "RMS3" | "KENC" | "SOCKS5";
export const LISTEN_CHOICES: ListenChoice[] = ["TCP", "SSL", "TTS", "KENC", "SOCKS5", "RMS", "RMS2", "RMS3"];
/**
 * Pool protocols: RMS2/RMS3 reach another Pithead's tunnel port (docs/rms-tunnel.md) for the main,
 * standby and — on a Bitcoin-family coin — fee pools; a fee pool of another coin shows them but
 * cannot select them (the server refuses them there: appliance/domain/transports.ts).
 */
export const CONNECT_MODES: { code: number; label: string; tunnel: boolean }[] = [
  { code: 0, label: "TCP", tunnel: false },
  { code: 1, label: "SSL", tunnel: false },
  { code: 5, label: "RMS2", tunnel: true },
  { code: 6, label: "RMS3", tunnel: true },
];

/** Whether a fee pool of a port of `category` may use this protocol (the server's own rule). */
export const feeProtocolAvailable = (mode: { tunnel: boolean }, category: string | undefined): boolean =>
  !mode.tunnel || tunnelFeePoolAllowed(category ?? "");
export const MAX_WALLETS = 10;
export const NGINX = "NGINX";

export interface WalletRow {
  id?: number;
  addr: string;
  device: string;
  pool_address: string;
  pool_protocol: number;
  /** percent as typed, 0..100 */
  percent: string;
}

export interface PortForm {
  id?: number;
  port: string;
  name: string;
  currency: string;
  category: string;
  limit_connections: string;
  pool_address: string;
  connect_mode: number;
  pool_address2: string;
  connect_mode2: number;
  mode: number;
  proxy_addr: string;
  proxy_device: string;
  pattern_addr: string;
  replace_addr: string;
  listen: ListenChoice;
  unifyWallet: boolean;
  unifyDevice: boolean;
  okminer: boolean;
  protect: boolean;
  forceSuccess: boolean;
  oldModel: boolean;
  mallob: string;
  sd: string;
  st: string;
  ra: string;
  /** RFC 1929 credentials of a SOCKS5 port; both empty: no authentication */
  socksUser: string;
  socksPassword: string;
  nc: number;
  wallets: WalletRow[];
}

export const emptyWallet = (): WalletRow => ({
  addr: "",
  device: "",
  pool_address: "",
  pool_protocol: 0,
  percent: "0",
});

export function emptyForm(currency = ""): PortForm {
  return {
    port: "",
    name: "",
    currency,
    category: "",
    limit_connections: "65535",
    pool_address: "",
    connect_mode: 0,
    pool_address2: "",
    connect_mode2: 0,
    mode: 0,
    proxy_addr: "",
    proxy_device: "",
    pattern_addr: "",
    replace_addr: "",
    listen: "TCP",
    unifyWallet: false,
    unifyDevice: false,
    okminer: false,
    protect: false,
    forceSuccess: false,
    oldModel: false,
    mallob: "",
    sd: "",
    st: "",
    ra: "",
    socksUser: "",
    socksPassword: "",
    nc: 0,
    wallets: [emptyWallet()],
  };
}

export function listenToWire(choice: ListenChoice): { protocol: number; et_mode: number } {
  switch (choice) {
    case "TCP":
      return { protocol: 0, et_mode: 0 };
    case "SSL":
      return { protocol: 1, et_mode: 0 };
    case "KENC":
      return { protocol: 1, et_mode: 1 };
    case "SOCKS5":
      return { protocol: 0, et_mode: 2 };
    case "RMS":
      return { protocol: 2, et_mode: 0 };
    case "TTS":
      return { protocol: 3, et_mode: 0 };
    case "RMS2":
      return { protocol: 5, et_mode: 0 };
    case "RMS3":
      return { protocol: 6, et_mode: 0 };
  }
}

export function wireToListen(protocol: number, etMode: number): ListenChoice {
  if (protocol === 1) return etMode === 1 ? "KENC" : "SSL";
  if (protocol === 0) return etMode === 2 ? "SOCKS5" : "TCP";
  const map: Record<number, ListenChoice> = { 2: "RMS", 3: "TTS", 5: "RMS2", 6: "RMS3" };
  return map[protocol] ?? "TCP";
}

/** Percent string → 0..1 ratio rounded to 4 decimals (0.01 % steps). */
export function percentToRatio(percent: string): number {
  const n = Number(percent);
  return Number.isFinite(n) ? Math.round(n * 100) / 10000 : 0;
}

export function ratioToPercent(ratio: number): string {
  return String(Math.round(ratio * 10000) / 100);
}

const strip = (s: string) => s.replace(/\s+/g, "");
/** Lines trimmed, blank lines collapsed. */
export const cleanLines = (s: string) =>
  s
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");

export function fromItem(item: PortItem): PortForm {
  const s = item.server;
  const st = item.setting;
  return {
    id: s.id,
    port: String(s.port),
    name: s.name ?? "",
    currency: s.currency,
    category: s.category ?? "",
    limit_connections: String(s.limit_connections ?? 65535),
    pool_address: s.pool_address ?? "",
    connect_mode: s.connect_mode ?? 0,
    pool_address2: s.pool_address2 ?? "",
    connect_mode2: s.connect_mode2 ?? 0,
    mode: s.mode ?? 0,
    proxy_addr: s.proxy_addr ?? "",
    proxy_device: s.proxy_device ?? "",
    pattern_addr: s.pattern_addr ?? "",
    replace_addr: s.replace_addr ?? "",
    listen: wireToListen(s.protocol, st?.et_mode ?? 0),
    unifyWallet: st?.cp_mode === 1,
    unifyDevice: st?.cp_name === 1,
    okminer: st?.pu_mode === 1,
    protect: st?.lj === 1,
    forceSuccess: st?.fr === 1,
    oldModel: st?.cut === 1,
    mallob: st?.pth ? String(st.pth) : "",
    sd: st?.sd ?? "",
    st: st?.st ?? "",
    ra: st?.ra ?? "",
    socksUser: st?.socks_user ?? "",
    socksPassword: st?.socks_password ?? "",
    nc: s.nc ?? 0,
    wallets: item.wallets.length
      ? item.wallets.map((w) => ({
          id: w.id,
          addr: w.addr,
          device: w.device,
          pool_address: w.pool_address,
          pool_protocol: w.pool_protocol,
          percent: ratioToPercent(w.ratio),
        }))
      : [emptyWallet()],
  };
}

/** Clone mode: same configuration, no id, no port number, no wallet ids (spec §4). */
export function cloneForm(form: PortForm): PortForm {
  return { ...form, id: undefined, port: "", wallets: form.wallets.map(({ id: _id, ...w }) => ({ ...w })) };
}

/** Fee rows sent on create: percent-0 rows dropped except the first (spec §5). */
export function walletsToWire(rows: WalletRow[], creating: boolean): WireWallet[] {
  const kept = creating ? rows.filter((r, i) => i === 0 || percentToRatio(r.percent) > 0) : rows;
  return kept.map((r) => ({
    ...(r.id !== undefined ? { id: r.id } : {}),
    addr: strip(r.addr),
    device: r.device.trim(),
    pool_address: strip(r.pool_address),
    pool_protocol: r.pool_protocol,
    ratio: percentToRatio(r.percent),
  }));
}

export function toPayload(form: PortForm, category: string): PortPayload {
  const { protocol, et_mode } = listenToWire(form.listen);
  const creating = form.id === undefined;
  const port = Number(form.port);
  const nginx = form.currency === NGINX;
  return {
    ...(form.id !== undefined ? { id: form.id } : {}),
    port,
    name: form.name.trim(),
    currency: form.currency,
    nc: form.nc,
    limit_connections: form.limit_connections === "" ? 65535 : Number(form.limit_connections),
    pool_address: strip(form.pool_address),
    connect_mode: form.connect_mode,
    pool_address2: nginx ? "" : strip(form.pool_address2),
    connect_mode2: form.connect_mode2,
    mode: nginx ? 0 : form.mode,
    proxy_addr: strip(form.proxy_addr),
    proxy_device: form.proxy_device.trim(),
    pattern_addr: nginx ? "" : cleanLines(form.pattern_addr),
    replace_addr: nginx ? "" : strip(form.replace_addr),
    protocol,
    category: category || form.category,
    setting: {
      cp_name: form.unifyDevice || form.mode === 2 ? 1 : 0,
      cp_mode: form.unifyWallet || form.mode === 2 ? 1 : 0,
      pu_mode: form.okminer ? 1 : 0,
      et_mode,
      lj: form.protect ? 1 : 0,
      pth: form.mallob ? Number(form.mallob) : 0,
      cut: form.oldModel ? 1 : 0,
      fr: form.forceSuccess ? 1 : 0,
      op: 0,
      sp: 0,
      sd: nginx ? "" : cleanLines(form.sd),
      st: nginx ? "" : form.st.trim(),
      ra: form.ra.trim(),
      port,
      // only a SOCKS5 port asks for credentials; switching away drops them
      socks_user: form.listen === "SOCKS5" ? form.socksUser : "",
      socks_password: form.listen === "SOCKS5" ? form.socksPassword : "",
    },
    wallets: nginx
      ? []
      : walletsToWire(form.wallets, creating).map((w) =>
          form.mode === 1
            ? { ...w, pool_address: strip(form.pool_address), pool_protocol: form.connect_mode }
            : w,
        ),
  };
}

/** Count and total percent of active fee rows, for the tab title. */
export function feeSummary(rows: WalletRow[]): { count: number; percent: number } {
  const active = rows.filter((r) => percentToRatio(r.percent) > 0);
  const percent = active.reduce((a, r) => a + percentToRatio(r.percent) * 100, 0);
  return { count: active.length, percent: Math.round(percent * 100) / 100 };
}

/** Fee rows whose pool differs from the target pool need the typed confirmation (spec §5). */
export function feePoolDiffers(form: PortForm): boolean {
  if (form.mode === 1 || form.currency === NGINX) return false;
  const main = strip(form.pool_address).toLowerCase();
  return form.wallets.some(
    (r) =>
      percentToRatio(r.percent) > 0 &&
      strip(r.pool_address) !== "" &&
      strip(r.pool_address).toLowerCase() !== main,
  );
}

export const CONFIRM_SENTENCES = [
  "I confirm the fee pool differs from the target pool",
  "我确认抽水矿池与目标矿池不同",
];

export function confirmSentenceOk(typed: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
  return CONFIRM_SENTENCES.some((s) => norm(s) === norm(typed));
}
