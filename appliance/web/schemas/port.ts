import { z } from "zod";
import { familyOf, feeSupported, modesOf } from "../../catalog/categories.ts";
import { categoryOf } from "../../catalog/currencies.ts";
import {
  ConnectMode,
  DEFAULT_LIMIT_CONNECTIONS,
  emptySetting,
  ListenProtocol,
  MAX_FEE_WALLETS,
  PORT_MAX,
  PORT_MIN,
  type PortSetting,
  ProxyMode,
} from "../../domain/port.ts";
import { missingTransport, SOCKS_CREDENTIAL_MAX_BYTES } from "../../domain/transports.ts";
import type { PortInput, WalletInput } from "../../store/ports.ts";

/** Spec §5: whitespace is stripped from pool addresses and wallets. */
const noSpace = (s: string) => s.replace(/\s+/g, "");
const stripped = z.string().default("").transform(noSpace);
const text = z
  .string()
  .default("")
  .transform((s) => s.trim());

/** Numbers may arrive as JSON numbers or numeric strings (form fields, spreadsheet cells). */
const numeric = (key: string) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : v), z.number(key));

const codeOf = (codes: Record<string, number>, key: string) =>
  numeric(key).refine((n) => Object.values(codes).includes(n), key);

const portNumber = numeric("lang.proxy.err_port").pipe(
  z
    .number()
    .int("lang.proxy.err_port")
    .min(PORT_MIN, "lang.proxy.err_port")
    .max(PORT_MAX, "lang.proxy.err_port"),
);

/** Percent runs 0..100 in steps of 0.01, so the ratio runs 0..1 in steps of 0.0001. */
const ratio = numeric("lang.wallet.err_ratio").pipe(
  z
    .number()
    .min(0, "lang.wallet.err_ratio")
    .max(1, "lang.wallet.err_ratio")
    .refine((r) => Math.abs(r * 10000 - Math.round(r * 10000)) < 1e-6, "lang.wallet.err_ratio"),
);

export const walletSchema = z.object({
  /** an existing row of this port keeps its id through an edit (overrides and history refer to it) */
  id: z.number().int().positive().optional(),
  addr: stripped,
  device: text,
  pool_address: stripped,
  pool_protocol: codeOf(ConnectMode, "lang.proxy.err_connect_mode").default(0),
  ratio: ratio.default(0),
});

/** The fee wallets of one port may take at most all of its work, not 10 × 50 %. */
export const overAll = (wallets: readonly { ratio: number }[]): boolean =>
  wallets.reduce((sum, w) => sum + w.ratio, 0) > 1 + 1e-9;

const switchValue = numeric("lang.err.params").pipe(z.number().int("lang.err.params")).default(0);

const settingSchema = z
  .object({
    cp_name: switchValue,
    cp_mode: switchValue,
    pu_mode: switchValue,
    et_mode: numeric("lang.err.params")
      .pipe(z.number().int().min(0, "lang.err.params").max(2, "lang.err.params"))
      .default(0),
    lj: switchValue,
    pth: numeric("lang.err.params")
      .pipe(z.number().int().min(0, "lang.err.params").max(65535, "lang.err.params"))
      .default(0),
    cut: switchValue,
    fr: switchValue,
    op: switchValue,
    sp: switchValue,
    sd: z.string().default(""),
    st: text,
    ra: text,
    // kept exactly as typed: a SOCKS client sends its bytes as they are
    socks_user: z.string().default(""),
    socks_password: z.string().default(""),
  })
  .default(() => emptySetting());

export const portSchema = z
  .object({
    port: portNumber,
    name: text,
    currency: z.string("lang.proxy.err_currency").trim().min(1, "lang.proxy.err_currency"),
    category: z.string().optional(),
    nc: numeric("lang.err.params").pipe(z.number().int().min(0).max(1, "lang.err.params")).default(0),
    limit_connections: numeric("lang.proxy.err_limit")
      .pipe(
        z
          .number()
          .int("lang.proxy.err_limit")
          .min(0, "lang.proxy.err_limit")
          .max(65535, "lang.proxy.err_limit"),
      )
      .default(DEFAULT_LIMIT_CONNECTIONS),
    pool_address: z
      .string("lang.proxy.err_pool_address")
      .transform(noSpace)
      .pipe(z.string("lang.proxy.err_pool_address").min(1, "lang.proxy.err_pool_address")),
    connect_mode: codeOf(ConnectMode, "lang.proxy.err_connect_mode").default(0),
    pool_address2: z
      .string()
      .nullish()
      .transform((s) => noSpace(s ?? "")),
    connect_mode2: codeOf(ConnectMode, "lang.proxy.err_connect_mode")
      .nullish()
      .transform((n) => n ?? 0),
    mode: codeOf(ProxyMode, "lang.proxy.err_mode").default(0),
    proxy_addr: stripped,
    proxy_device: text,
    pattern_addr: z.string().default(""),
    replace_addr: stripped,
    protocol: codeOf(ListenProtocol, "lang.proxy.err_protocol").default(0),
    status: z.union([z.literal(0), z.literal(1)]).default(1),
    setting: settingSchema,
    wallets: z.array(walletSchema).max(MAX_FEE_WALLETS, "lang.wallet.err_max").default([]),
  })
  .superRefine((p, ctx) => {
    const add = (message: string, path: (string | number)[]) =>
      ctx.addIssue({ code: "custom", message, path });
    const forward = isForward(p.currency);
    if (!forward && p.mode === ProxyMode.POOL) {
      if (!p.proxy_addr) add("lang.proxy.err_unified_wallet", ["proxy_addr"]);
      if (!p.proxy_device) add("lang.proxy.err_unified_device", ["proxy_device"]);
    }
    if (forward) return;
    if (p.wallets.length === 0) add("lang.wallet.err_min", ["wallets"]);
    if (overAll(p.wallets)) add("lang.wallet.err_total", ["wallets"]);
    p.wallets.forEach((w, i) => {
      if (w.ratio === 0) return;
      if (!w.addr) add("lang.wallet.err_addr", ["wallets", i, "addr"]);
      if (!w.device) add("lang.wallet.err_device", ["wallets", i, "device"]);
      if (!w.pool_address && p.mode !== ProxyMode.COMPATIBLE)
        add("lang.wallet.err_pool", ["wallets", i, "pool_address"]);
    });
    if (lines(p.pattern_addr).length > 0 !== (p.replace_addr !== "")) {
      add("lang.proxy.err_replace_wallet", [p.replace_addr ? "pattern_addr" : "replace_addr"]);
    }
    if (lines(p.setting.sd).length > 0 !== (p.setting.st !== "")) {
      add("lang.proxy.err_replace_name", [p.setting.st ? "setting.sd" : "setting.st"]);
    }
    const socks = socksCredentialsProblem(p);
    if (socks !== null) add("lang.proxy.err_socks_auth", [socks]);
  });

/**
 * RFC 1929 credentials: a user name and a password of 1 to 255 bytes each, or neither; only a SOCKS5
 * port (TCP with et_mode 2) asks for them. The field at fault, or null.
 */
function socksCredentialsProblem(p: {
  protocol: number;
  setting: { et_mode: number; socks_user: string; socks_password: string };
}): "setting.socks_user" | "setting.socks_password" | null {
  const { socks_user: user, socks_password: password } = p.setting;
  if (user === "" && password === "") return null;
  const fits = (s: string) => s !== "" && Buffer.byteLength(s) <= SOCKS_CREDENTIAL_MAX_BYTES;
  if (!fits(user)) return "setting.socks_user";
  if (!fits(password)) return "setting.socks_password";
  const socks5 = p.protocol === ListenProtocol.TCP && p.setting.et_mode === 2;
  return socks5 ? null : "setting.socks_user";
}

export type PortBody = z.infer<typeof portSchema>;

export function isForward(currency: string): boolean {
  return currency.toUpperCase() === "NGINX";
}

function lines(s: string): string[] {
  return s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

export class UnsupportedCoin extends Error {}

/**
 * The catalogue lists the coin but what the port asks is not implemented for it: its protocol family,
 * the chosen mode, fee wallets (pass-through coins), or an option the engine does not implement.
 */
export class NotOffered extends Error {
  constructor(
    readonly key:
      | "lang.proxy.err_family"
      | "lang.proxy.err_mode_unavailable"
      | "lang.wallet.err_fee_unsupported"
      | "lang.proxy.err_okminer"
      | "lang.proxy.err_mallob_relay"
      | "lang.proxy.err_transport",
    readonly detail: { category: string; family: string; modes: readonly number[] },
    /** the field the refusal points at */
    readonly field = key === "lang.proxy.err_family" ? "currency" : "mode",
  ) {
    super(key);
  }
}

/**
 * Turns a validated body into what is stored: the catalogue's category, mode side effects of spec §4,
 * the nginx coin's reduced field set, and (on create) zero-percent rows dropped except the first.
 */
export function normalizePort(p: PortBody, opts: { creating: boolean }): PortInput {
  const category = categoryOf(p.currency);
  if (!category) throw new UnsupportedCoin(p.currency);
  const modes = modesOf(category);
  const detail = { category, family: familyOf(category), modes };
  if (modes.length === 0) throw new NotOffered("lang.proxy.err_family", detail);
  // the NGINX coin has no connection mode: it is stored as Efficient whatever was sent
  if (category !== "nginx" && !modes.includes(p.mode))
    throw new NotOffered("lang.proxy.err_mode_unavailable", detail);
  const setting: Required<PortSetting> = { ...p.setting, sd: lines(p.setting.sd).join("\n"), port: p.port };
  const base = {
    ...p,
    category,
    pattern_addr: lines(p.pattern_addr).map(noSpace).join("\n"),
    setting,
  };
  const transport = missingTransport(base);
  if (transport !== null) throw new NotOffered("lang.proxy.err_transport", detail, transport.field);
  if (category === "nginx") return forwardOnly(base);
  // Options stored by earlier versions that no engine family implements are refused, not kept
  // silently: OKMiner optimisation has no published meaning, and a Mallob relay needs an upstream
  // address the port does not have (an NGINX pure-forward port relays it).
  if (setting.pu_mode !== 0) throw new NotOffered("lang.proxy.err_okminer", detail, "setting.pu_mode");
  if (setting.pth !== 0) throw new NotOffered("lang.proxy.err_mallob_relay", detail, "setting.pth");
  if (!feeSupported(category) && p.wallets.some((w) => w.ratio > 0))
    throw new NotOffered("lang.wallet.err_fee_unsupported", detail, "wallets");
  let wallets: WalletInput[] = p.wallets;
  if (opts.creating) wallets = wallets.filter((w, i) => i === 0 || w.ratio > 0);
  if (p.mode === ProxyMode.COMPATIBLE) {
    // Compatible takes the fee on the miner's own connection to the target pool.
    wallets = wallets.map((w) => ({ ...w, pool_address: p.pool_address, pool_protocol: p.connect_mode }));
  }
  if (p.mode === ProxyMode.POOL) {
    setting.cp_mode = 1;
    setting.cp_name = 1;
  }
  const { category: _c, ...rest } = base;
  return { ...rest, category, wallets };
}

/** Spec §5: the nginx pure-forward port honours only port, max connections, protocol and target pool. */
function forwardOnly(p: PortBody & { category: string; setting: PortSetting }): PortInput {
  return {
    port: p.port,
    name: p.name,
    currency: p.currency,
    category: p.category,
    nc: 0,
    limit_connections: p.limit_connections,
    pool_address: p.pool_address,
    connect_mode: p.connect_mode,
    pool_address2: "",
    connect_mode2: 0,
    mode: ProxyMode.EFFICIENT,
    proxy_addr: "",
    proxy_device: "",
    pattern_addr: "",
    replace_addr: "",
    protocol: p.protocol,
    status: p.status,
    setting: { ...emptySetting(), port: p.port },
    wallets: [],
  };
}
